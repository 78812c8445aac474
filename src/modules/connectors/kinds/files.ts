// What the git and folder kinds share: which files are documents (path patterns), and a file's bytes made
// into a text source (Markdown, AsciiDoc and text as they are, HTML read to Markdown).
import { isIngestError } from "../../../ingest";
import { invalid } from "../../../lib/errors";
import { sha256Hex } from "../../../lib/secrets";
import type { FetchOutcome, KindRun } from "./types";
import { stringList } from "./config-fields";

export const DEFAULT_FILE_PATTERNS = ["**/*.md", "**/*.markdown", "**/*.adoc", "**/*.asciidoc", "**/*.txt", "**/*.html", "**/*.htm"];

/** A path pattern over `/`-separated relative paths: `**` any folders, `*` any characters but `/`, `?` one. */
export function filePattern(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      re += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "i");
}

export interface FileSelection {
  include: RegExp[];
  exclude: RegExp[];
}

export function parseFileSelection(raw: Record<string, unknown>): FileSelection {
  const patterns = (name: string, fallback: string[]) => {
    const list = raw[name] === undefined ? fallback : stringList(raw, name);
    return list.map((p) => {
      if (p.startsWith("/") || p.split("/").includes("..")) throw invalid(`config.${name}`, `config.${name} holds patterns relative to the top (e.g. "docs/**/*.md")`);
      return filePattern(p);
    });
  };
  return { include: patterns("include", DEFAULT_FILE_PATTERNS), exclude: patterns("exclude", []) };
}

export const selected = (s: FileSelection, path: string) => s.include.some((p) => p.test(path)) && !s.exclude.some((p) => p.test(path));

const TYPE_BY_EXTENSION: Record<string, string> = { md: "text/markdown", markdown: "text/markdown", html: "text/html", htm: "text/html" };

function contentTypeOf(path: string): string {
  const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? "";
  return TYPE_BY_EXTENSION[ext] ?? "text/plain; charset=utf-8";
}

export const contentHash = (bytes: Uint8Array) => sha256Hex(Buffer.from(bytes).toString("latin1"));

const ASCIIDOC = /\.(adoc|asciidoc)$/i;

/** AsciiDoc's `= Title` / `== Section` headings as Markdown's, so its title and sections are read as such. */
const asciidocHeadings = (bytes: Uint8Array) =>
  new TextEncoder().encode(new TextDecoder().decode(bytes).replace(/^(={1,6}) (?=\S)/gm, (_, eq: string) => `${"#".repeat(eq.length)} `));

/** A file's bytes as the item's text source; `skipped` when it holds no text. */
export async function fileSource(run: KindRun<unknown>, path: string, bytes: Uint8Array, version: string, url?: string): Promise<FetchOutcome> {
  let doc;
  const adoc = ASCIIDOC.test(path);
  try {
    doc = await run.reader.extract({
      bytes: adoc ? asciidocHeadings(bytes) : bytes,
      contentType: adoc ? "text/markdown" : contentTypeOf(path),
      filename: path.split("/").pop(),
      ...(url ? { url } : {}),
    });
  } catch (e) {
    if (isIngestError(e) && (e.code === "unsupported_type" || e.code === "empty_document")) return { kind: "skipped", reason: e.message };
    throw e;
  }
  if (!doc.markdown.trim()) return { kind: "skipped", reason: "the file has no text" };
  return { kind: "content", source: { type: "text", title: doc.title || path, content: doc.markdown, ...(url ? { url } : {}) }, version };
}
