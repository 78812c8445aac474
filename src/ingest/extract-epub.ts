import { posix } from "node:path";
import { parseHTML } from "linkedom";
import type { ExtractionLimits } from "./budget.ts";
import { IngestError } from "./errors.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { pickTitle, titleFromName } from "./titles.ts";
import type { DocumentSource, ExtractedDocument as Extracted } from "./types.ts";
import { attrOf, childrenOf, findAll, findFirst, parseXml, textOf } from "./xml-tree.ts";
import { unzipBounded } from "./zip-bounded.ts";

/** The package's XML and the chapters' (X)HTML; pictures, fonts and styles stay uninflated. */
const WANTED = /\.(?:xml|opf|ncx|xhtml|html?|htm)$/i;
const CHAPTER_TYPES = new Set(["application/xhtml+xml", "text/html"]);

/**
 * An EPUB (2 or 3): its chapters in the spine's reading order, each (X)HTML file made Markdown with the
 * project's converter; a chapter that opens without a heading is headed by its own <title> or "Chapter N",
 * so each is a section of its own.
 */
export function extractEpub(bytes: Uint8Array, source: DocumentSource, limits: ExtractionLimits): Extracted {
  const entries = unzipBounded(bytes, limits, (name) => WANTED.test(name));
  const container = entries["META-INF/container.xml"];
  if (!container) throw unreadable("it has no META-INF/container.xml");
  const opfPath = attrOf(findFirst(parseXml(container, "the EPUB's container.xml"), "rootfile") ?? {}, "full-path");
  const opfBytes = opfPath ? entries[opfPath] : undefined;
  if (!opfPath || !opfBytes) throw unreadable("its container.xml names no package document that is there");
  const opf = parseXml(opfBytes, `the EPUB's ${opfPath}`);
  const manifest = new Map(findAll(opf, "item").map((item) => [attrOf(item, "id") ?? "", item]));
  const base = posix.dirname(opfPath);
  const chapters: string[] = [];
  for (const ref of findAll(childrenOf(findFirst(opf, "spine") ?? {}), "itemref")) {
    const item = manifest.get(attrOf(ref, "idref") ?? "");
    const href = item && attrOf(item, "href");
    if (!item || !href || !CHAPTER_TYPES.has(attrOf(item, "media-type") ?? "")) continue;
    const path = posix.normalize(posix.join(base, safeDecode(href.split("#")[0]!)));
    const html = entries[path];
    if (html) {
      const chapter = chapterMarkdown(new TextDecoder().decode(html), chapters.length + 1);
      if (chapter) chapters.push(chapter);
    }
  }
  if (chapters.length === 0 && manifest.size === 0) throw unreadable("its package document lists no files");
  const bookTitle = textOf(childrenOf(findFirst(childrenOf(findFirst(opf, "metadata") ?? {}), "title") ?? {})).trim();
  return { title: pickTitle(bookTitle, titleFromName(source.filename, source.url)), markdown: chapters.join("\n\n") };
}

function chapterMarkdown(html: string, number: number): string {
  const { document } = parseHTML(html);
  document.querySelectorAll("script, style, nav[epub\\:type='toc'], img, svg").forEach((el: Element) => el.remove());
  const markdown = htmlToMarkdown(document.body?.innerHTML ?? document.documentElement?.innerHTML ?? "").trim();
  if (!/[\p{L}\p{N}]/u.test(markdown)) return ""; // a cover picture, a blank page
  if (/^#{1,6}\s/.test(markdown)) return markdown;
  const title = (document.querySelector("title")?.textContent ?? "").replace(/\s+/g, " ").trim();
  return `## ${title || `Chapter ${number}`}\n\n${markdown}`;
}

function safeDecode(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    return href;
  }
}

const unreadable = (why: string) => new IngestError("unreadable_document", `could not read the EPUB: ${why}`);
