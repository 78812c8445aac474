/**
 * A small, fence-aware block reader for Markdown: just enough structure to normalize whitespace,
 * find headings and split documents without ever cutting inside a code fence. Blocks keep their
 * original text, so joining them back with blank lines loses nothing but extra whitespace.
 */
export type Block =
  | { kind: "heading"; level: number; title: string; text: string }
  | { kind: "fence"; text: string }
  | { kind: "paragraph"; text: string };

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
// A one-line paragraph that is really a list item, quote or table row: "---" under it is a rule.
const NOT_SETEXT_TEXT = /^ {0,3}([-*+>|]|\d+[.)])(\s|$)/;

export function parseBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: "paragraph", text: paragraph.join("\n") });
    paragraph = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE_OPEN.exec(line);
    if (fence && !(fence[1]!.startsWith("`") && fence[2]!.includes("`"))) {
      flushParagraph();
      const closing = new RegExp(`^ {0,3}${fence[1]![0] === "`" ? "`" : "~"}{${fence[1]!.length},}[ \\t]*$`);
      const body = [line];
      while (++i < lines.length) {
        body.push(lines[i]!);
        if (closing.test(lines[i]!)) break;
      }
      blocks.push({ kind: "fence", text: body.join("\n").replace(/\s+$/, "") }); // an unclosed fence runs to the end
      continue;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading) {
      flushParagraph();
      blocks.push({ kind: "heading", level: heading[1]!.length, title: plainHeading(heading[2] ?? ""), text: line.trimEnd() });
      continue;
    }
    const underline = SETEXT_UNDERLINE.exec(line);
    if (underline && paragraph.length === 1 && !NOT_SETEXT_TEXT.test(paragraph[0]!)) {
      const text = paragraph[0]!;
      paragraph = [];
      blocks.push({ kind: "heading", level: underline[1]![0] === "=" ? 1 : 2, title: plainHeading(text), text: `${text}\n${line.trimEnd()}` });
      continue;
    }
    if (line.trim() === "") flushParagraph();
    else paragraph.push(line.trimEnd());
  }
  flushParagraph();
  return blocks;
}

export function joinBlocks(blocks: readonly Block[]): string {
  return blocks.map((b) => b.text).join("\n\n");
}

/** Line endings unified, trailing spaces and runs of blank lines removed; code fences untouched. */
export function normalizeMarkdown(markdown: string): string {
  return joinBlocks(parseBlocks(markdown));
}

/** Heading text without inline Markdown: links keep their label, emphasis and code marks go. */
export function plainHeading(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*`]+/g, "")
    .replace(/(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}]|$)/gu, "$1") // emphasis, not snake_case
    .replace(/\\([\\`*_{}\[\]()#+\-.!])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}
