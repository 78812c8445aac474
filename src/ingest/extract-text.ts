import type { DocumentSource, ExtractedDocument as Extracted } from "./types.ts";
import { parseBlocks } from "../lib/markdown-blocks.ts";
import { firstLineTitle, pickTitle, titleFromName } from "./titles.ts";

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;

/** Markdown kept as written; front matter dropped (its `title:` is used). Title: front matter, first `#`, file name. */
export function extractMarkdown(text: string, source: DocumentSource): Extracted {
  const normalized = text.replace(/\r\n?/g, "\n");
  const frontMatter = FRONT_MATTER.exec(normalized);
  const body = frontMatter ? normalized.slice(frontMatter[0].length) : normalized;
  const frontTitle = frontMatter ? /^title:\s*["']?(.*?)["']?\s*$/m.exec(frontMatter[1]!)?.[1] : undefined;
  const h1 = parseBlocks(body).find((b) => b.kind === "heading" && b.level === 1);
  const title = pickTitle(frontTitle, h1?.kind === "heading" ? h1.title : undefined, titleFromName(source.filename, source.url));
  return { title, markdown: body };
}

/** Plain text as Markdown: escaped so a line starting with "#" or "```" stays text. */
export function extractPlainText(text: string, source: DocumentSource): Extracted {
  const normalized = text.replace(/\r\n?/g, "\n");
  return {
    title: pickTitle(firstLineTitle(normalized), titleFromName(source.filename, source.url)),
    markdown: escapePlainText(normalized),
  };
}

export function escapePlainText(text: string): string {
  return text.replace(/^( {0,3})(#{1,6}(?=\s|$)|`{3,}|~{3,}|>)/gm, "$1\\$2");
}
