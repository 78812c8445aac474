// The prose of a Markdown page as units a sentence splitter can read: a paragraph, one list item, or one
// table row. Runbooks, READMEs and incident reviews are made of lists and tables; read as paragraphs, a list
// ran into one "sentence" ("Access to the namespace A Vault token with the policy kubectl 1.29 or newer")
// and a table into a string of cells, which answers quoted and concept pages showed as mentions. Headings
// are not prose: each unit carries the headings it sits under, as context.
import { OCR_NOTE_PATTERN } from "../lib/ocr-note.ts";
import { parseBlocks, plainHeading } from "../lib/markdown-blocks";

export interface ProseUnit {
  /**
   * `row`: one table row, read as "Header: cell; Header: cell" (one sentence, never split). `command`: a
   * code line with a comment, read as "comment: code" (never split; answers only, concepts skip it).
   * `label`: a line wholly in bold that heads what follows (a glossary's term, a FAQ's question): the names
   * it holds are read (concepts), but it is no answer. `heading`: a Markdown heading (also every unit's
   * context, below): concepts read the ones that are a person's name (a team page's "## Maria Okafor").
   */
  kind: "paragraph" | "item" | "row" | "command" | "label" | "heading";
  text: string;
  /** A row's cells without their headers (a header is a label, not something the row names). */
  cells?: string[];
  /** A row's headers (of its non-empty cells): what its cells are, context as headings are. */
  headers?: string[];
  /** A row's table: its number in the page (0, 1, …). */
  table?: number;
  /** The headings above the unit, outermost first (plain text). */
  headings: string[];
  /** An item's list: its number in the page (0, 1, …) and whether it is numbered (steps). */
  list?: { id: number; ordered: boolean };
  /**
   * The lines of the code block a paragraph or item ending in ":" introduces ("Install the toolchain with:"
   * then a fence): what it says to run. Answers quote them with it; concepts do not read them.
   */
  code?: string[];
}

/** A line wholly in bold, and the level of the heading it makes (below every Markdown heading). */
const BOLD_LINE = /^\s{0,3}(\*\*|__)(?!\s)(.+?)\1\s*$/;
const BOLD_LEVEL = 7;
const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s+/;
const QUOTE = /^\s{0,3}>\s?/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)*\|?\s*$/;
/** Code fences are not prose; neither are the generated lines a page may end with. */
const GENERATED_LINE = new RegExp(String.raw`^(?:Related: \[\[.*|Source: <[^>\n]*>|${OCR_NOTE_PATTERN})\s*$`);

export function proseUnits(markdown: string): ProseUnit[] {
  const units: ProseUnit[] = [];
  const path: { level: number; title: string }[] = [];
  let lists = 0;
  let tables = 0;
  for (let block of parseBlocks(markdown)) {
    if (block.kind === "heading") {
      while (path.length > 0 && path.at(-1)!.level >= block.level) path.pop();
      if (block.title) units.push({ kind: "heading", text: block.title, headings: path.map((h) => h.title) });
      if (block.title) path.push({ level: block.level, title: block.title });
      continue;
    }
    // A paragraph opening with a line in bold alone ("**Can I get a refund?**") is headed by it, as a FAQ's
    // question heads its answer; a bold line with nothing after it heads the blocks up to the next heading.
    if (block.kind === "paragraph") {
      const [first, ...rest] = block.text.split("\n");
      const bold = BOLD_LINE.exec(first!)?.[2]?.trim();
      if (bold && !/\*\*|__/.test(bold)) {
        while (path.length > 0 && path.at(-1)!.level >= BOLD_LEVEL) path.pop();
        units.push({ kind: "label", text: bold, headings: path.map((h) => h.title) });
        path.push({ level: BOLD_LEVEL, title: bold });
        if (rest.length === 0) continue;
        block = { kind: "paragraph", text: rest.join("\n") };
      }
    }
    const headings = path.map((h) => h.title);
    if (block.kind === "fence") {
      const introduced = units.at(-1);
      if (introduced && (introduced.kind === "paragraph" || introduced.kind === "item") && /:\s*$/.test(introduced.text)) introduced.code = codeLines(block.text);
      units.push(...commentedLines(block.text).map((text) => ({ kind: "command" as const, text, headings })));
      continue;
    }
    const lines = block.text
      .split("\n")
      .map((l) => l.replace(QUOTE, ""))
      .filter((l) => !GENERATED_LINE.test(l));
    if (isTable(lines)) {
      const table = tables++;
      units.push(...tableRows(lines).map(({ text, cells, headers }) => ({ kind: "row" as const, text, cells, headers, headings, table })));
      continue;
    }
    let current: ProseUnit | null = null;
    let list: ProseUnit["list"];
    let itemHeadings = headings;
    for (const line of lines) {
      const item = LIST_ITEM.exec(line);
      // As in CommonMark, a numbered line interrupts a paragraph only as "1." (a wrapped line may start "1990. ").
      if (item && current?.kind === "paragraph" && /^\s*\d/.test(item[0]) && !/^\s*1[.)]/.test(item[0])) current.text += ` ${line.trim()}`;
      else if (item) {
        if (!list) {
          list = { id: lists++, ordered: /\d/.test(item[0]) };
          itemHeadings = leadIn(units.at(-1), headings);
        }
        units.push((current = { kind: "item", text: line.slice(item[0].length).trim(), headings: itemHeadings, list }));
      }
      else if (current && line.trim()) current.text += ` ${line.trim()}`; // a continuation line
      else if (line.trim()) units.push((current = { kind: "paragraph", text: line.trim(), headings }));
    }
  }
  return units.filter((u) => /[\p{L}\p{N}]/u.test(u.text));
}

/**
 * The headings of a list's items: a short paragraph ending in a colon right before the list ("Decisions:",
 * "Before you upgrade:") labels it as a heading would, and becomes a label itself (answers quote the items,
 * never "Action items:" alone).
 */
function leadIn(before: ProseUnit | undefined, headings: string[]): string[] {
  const label = before?.kind === "paragraph" && before.headings.join("\n") === headings.join("\n") ? /^(.{1,80}):$/.exec(before.text)?.[1] : undefined;
  if (!label || label.split(/\s+/).length > MAX_LEAD_IN_WORDS) return headings;
  before!.kind = "label";
  return [...headings, label];
}
const MAX_LEAD_IN_WORDS = 8;

/** A pipe table: a header row, then a separator row ("|---|:--:|"), then its rows. */
function isTable(lines: string[]): boolean {
  return lines.length >= 2 && lines[0]!.includes("|") && TABLE_SEPARATOR.test(lines[1]!) && lines[1]!.includes("-");
}

/** Each body row as "Header: cell; Header: cell" (empty cells left out), and its cells alone. */
function tableRows(lines: string[]): { text: string; cells: string[]; headers: string[] }[] {
  const cells = (line: string) =>
    line
      // A wiki link's "|" is not a cell's edge: links are read as their labels.
      .replace(/\[\[([^\[\]|\n]+)\|([^\[\]\n]*)\]\]/g, "$2")
      .trim()
      .replace(/^\|/, "")
      .replace(/(?<!\\)\|$/, "")
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
  const header = cells(lines[0]!).map(plainHeading);
  return lines.slice(2).flatMap((line) => {
    const row = cells(line);
    const parts = row.flatMap((cell, i) => (cell ? [header[i] ? `${header[i]}: ${cell}` : cell] : []));
    return parts.length > 0 ? [{ text: parts.join("; "), cells: row.filter(Boolean), headers: row.flatMap((cell, i) => (cell && header[i] ? [header[i]!] : [])) }] : [];
  });
}

/**
 * Emphasis marks (`*`, `_`, up to three) at a word's edge removed, and backslash escapes undone: "**bold**"
 * → bold, "sales\\_nightly" (as converters escape an identifier) → sales_nightly; an underscore inside a word
 * (snake_case) stays. Escapes are undone last, so an escaped mark is never taken for emphasis.
 */
export function withoutEmphasis(text: string): string {
  return text
    .replace(/(?<![\\\p{L}\p{N}])[*_]{1,3}|(?<!\\)[*_]{1,3}(?![\p{L}\p{N}])/gu, "")
    .replace(/\\([!-/:-@[-`{-~])/g, "$1");
}

/**
 * A fence's lines that say what they do in a comment ("npm test   # run the whole test suite"), as "run the
 * whole test suite: `npm test`": a "how do I" question is often answered by a command, and code is no prose.
 */
function commentedLines(fence: string): string[] {
  return fence
    .split("\n")
    .slice(1)
    .flatMap((line) => {
      const m = COMMENTED.exec(line);
      return m && /\p{L}{2}/u.test(m[2]!) ? [`${m[2]!.trim()}: \`${m[1]!.trim().replaceAll("`", "")}\``] : [];
    });
}

/** An introduced code block's lines worth quoting: at most this many, of at most this many characters in all. */
const MAX_CODE_LINES = 8;
const MAX_CODE_CHARS = 400;

/** A fence's non-blank lines (without the fences), or none when it is too long to quote. */
function codeLines(fence: string): string[] {
  const lines = fence.split("\n").slice(1);
  if (lines.length > 0 && /^ {0,3}(?:`{3,}|~{3,})[ \t]*$/.test(lines.at(-1)!)) lines.pop();
  const code = lines.map((l) => l.trim()).filter((l) => l.length > 0);
  return code.length <= MAX_CODE_LINES && code.join("").length <= MAX_CODE_CHARS ? code : [];
}

/** Code, then a shell or C-style comment after whitespace (not "#!" or a URL's "//"). */
const COMMENTED = /^\s*(\S.*?)\s+(?:#|\/\/)\s+(.+)$/;
