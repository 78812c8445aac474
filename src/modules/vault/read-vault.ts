// A vault's Markdown notes as pages to write: title (front matter `title`, else the file name), slug (front
// matter `slug` when it is a valid slug, else one made from the file name) and the body with its
// `[[wikilinks]]` pointed at the slugs the notes get here. Obsidian resolves `[[name]]` by file name
// (case-insensitive, path optional, `#heading` and `|shown text` allowed); a link that names no note of the
// vault stays a link to the slug of what it names: an unresolved link, as in Obsidian, that resolves once a
// page of that slug exists.
import { slugify, slugRef, uniqueSlug } from "../../lib/slug";
import { AppError } from "../../lib/errors";
import { splitFrontMatter, stringField } from "./front-matter";
import { VAULT_META_DIR } from "./export";

export interface VaultNote {
  path: string;
  title: string;
  slug: string;
  markdown: string;
}

/** Folders of a vault that hold no notes of its own: Obsidian's settings and trash, the export's files. */
const SKIPPED_FOLDERS = new Set([".obsidian", ".trash", VAULT_META_DIR]);
const MAX_TITLE_CHARS = 300;

/** Whether a zip entry is a note the import reads (the rest is skipped, uninflated). */
export const isNoteEntry = (path: string) => /\.md$/i.test(path) && !SKIPPED_FOLDERS.has(path.split("/")[0]!) && !path.split("/").some((s) => s.startsWith("."));

/** Refuses an entry name that would climb out of the vault or is absolute (a hostile zip). */
export function checkEntryName(path: string): void {
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.includes("\\") || path.includes("\0") || path.split("/").some((s) => s === ".."))
    throw new AppError("invalid_request", `The vault holds an entry with an unsafe path (${JSON.stringify(path.slice(0, 200))}): nothing was imported`, { entry: path.slice(0, 200) });
}

const stemOf = (path: string) => path.split("/").pop()!.replace(/\.md$/i, "");
const keyOf = (name: string) => name.trim().normalize("NFC").toLowerCase();

/**
 * The notes with slugs unique among themselves and against `taken` (slugs the brain already has), and their
 * links rewritten to those slugs.
 */
export function readVault(files: Array<{ path: string; text: string }>, taken: ReadonlySet<string>): VaultNote[] {
  const used = new Set(taken);
  const drafts = files
    .slice()
    .sort((a, b) => a.path.localeCompare(b.path))
    .map((file) => {
      const { fields, body } = splitFrontMatter(file.text);
      const stem = stemOf(file.path);
      const title = (stringField(fields, "title") ?? stem).replace(/\s+/g, " ").slice(0, MAX_TITLE_CHARS) || stem;
      const wanted = stringField(fields, "slug");
      const base = wanted && slugify(wanted) === slugRef(wanted) ? slugRef(wanted) : slugify(stem);
      const slug = uniqueSlug(base, (s) => used.has(s));
      used.add(slug);
      return { path: file.path, title, slug, body, stem, wanted };
    });
  // What a link may name: a note's file name (with or without its folders), its original slug, its title.
  const byName = new Map<string, string>();
  const name = (key: string | undefined, slug: string) => {
    if (key && !byName.has(keyOf(key))) byName.set(keyOf(key), slug);
  };
  for (const d of drafts) name(d.path.replace(/\.md$/i, ""), d.slug);
  for (const d of drafts) name(d.stem, d.slug);
  for (const d of drafts) name(d.wanted, d.slug);
  for (const d of drafts) name(d.title, d.slug);
  const resolve = (target: string) => byName.get(keyOf(target.replace(/\.md$/i, ""))) ?? byName.get(keyOf(stemOf(target))) ?? null;
  return drafts.map((d) => ({ path: d.path, title: d.title, slug: d.slug, markdown: rewriteLinks(d.body, resolve) }));
}

const LINK = /(!?)\[\[([^\[\]|#\n]*)(#[^\[\]|\n]*)?(?:\|([^\[\]\n]*))?\]\]/g;

/** Each `[[target#heading|shown]]` outside code as `[[slug]]` or `[[slug|shown]]`; embeds (`![[...]]`) stay. */
export function rewriteLinks(markdown: string, resolve: (target: string) => string | null): string {
  let fenced = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return line;
      }
      if (fenced) return line;
      return line.replace(LINK, (whole, bang: string, target: string, heading: string | undefined, shown: string | undefined) => {
        if (bang || !target.trim()) return whole;
        const slug = resolve(target) ?? slugify(stemOf(target));
        const label = shown ?? (heading ? `${target}${heading}` : target);
        return label === slug ? `[[${slug}]]` : `[[${slug}|${label}]]`;
      });
    })
    .join("\n");
}
