// YAML front matter of a vault's notes, the part Obsidian reads: written as `key: "JSON string"` lines
// (a JSON string is a valid YAML double-quoted scalar), read back with the common shapes people write by
// hand: plain, single- or double-quoted scalars, numbers, flow lists `[a, b]` and block lists of `- item`.
// Nested maps and multi-line scalars are not read (their keys are ignored).

export type FrontMatter = Record<string, string | number | string[]>;

/** `---` lines around `key: value` lines, then the body. */
export function withFrontMatter(fields: FrontMatter, body: string): string {
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join("\n")}\n---\n\n${body}`;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/m;

/** The note's front matter (empty when it has none) and its body without it. */
export function splitFrontMatter(text: string): { fields: FrontMatter; body: string } {
  const open = OPEN.exec(text);
  if (!open) return { fields: {}, body: text.replace(/^\uFEFF/, "") };
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) return { fields: {}, body: text.replace(/^\uFEFF/, "") };
  const yaml = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length).replace(/^\r?\n(\r?\n)?/, "");
  return { fields: parseFields(yaml), body };
}

function parseFields(yaml: string): FrontMatter {
  const fields: FrontMatter = {};
  let listKey: string | null = null;
  for (const line of yaml.split(/\r?\n/)) {
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey) {
      (fields[listKey] as string[]).push(String(scalar(item[1]!)));
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line);
    if (!pair) {
      listKey = null;
      continue;
    }
    const [, key, raw] = pair as unknown as [string, string, string];
    if (raw.trim() === "") {
      fields[key] = [];
      listKey = key;
      continue;
    }
    listKey = null;
    fields[key] = raw.trim().startsWith("[") ? flowList(raw.trim()) : scalar(raw);
  }
  return fields;
}

function scalar(raw: string): string | number {
  const value = raw.trim();
  if (value.startsWith('"')) {
    try {
      return JSON.parse(value);
    } catch {
      return value.replace(/^"|"$/g, "");
    }
  }
  if (value.startsWith("'")) return value.replace(/^'|'$/g, "").replace(/''/g, "'");
  const plain = value.replace(/\s+#.*$/, "");
  return /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : plain;
}

function flowList(raw: string): string[] {
  try {
    const parsed = JSON.parse(raw);
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch {
    // not JSON: split by commas below
  }
  return raw
    .slice(1, raw.endsWith("]") ? -1 : undefined)
    .split(",")
    .map((s) => String(scalar(s)))
    .filter(Boolean);
}

/** A field as a string, when it is one. */
export const stringField = (fields: FrontMatter, key: string): string | undefined => {
  const value = fields[key];
  return typeof value === "string" && value.trim() ? value.trim() : typeof value === "number" ? String(value) : undefined;
};
