// "Which plan is cheapest?", "Which plan has the most seats?": a question asking for the extreme of a table's
// column. No sentence says "cheapest", so the extractive answerer was thin over a pricing table that answers
// it. Here the question's superlative names a direction and what is compared (the price of "cheapest", the
// seats of "most seats"); in each table of a page whose header names that, the row holding the extreme value
// says the superlative, in the evidence's eyes (evidence.ts). A cell that is no number stays out of the
// comparison; for a largest, its row is quoted beside (an Enterprise plan's "Custom" price is likely the
// highest, and the reader should see it). Tables only: a list or a paragraph states values too loosely
// ("from €19", "up to 15 seats") to compare by.
import { MONEY } from "../../lib/currency";
import { wordsOf } from "../../retrieval";
import { stem, type Sentence, type Words } from "./sentences";

export interface Superlative {
  /** Stems of the question's words that ask for the extreme ("cheapest"; "most" and "seats"). */
  asked: string[];
  /** Whether a column header names what is compared. */
  compares(header: string): boolean;
  direction: "min" | "max";
  /** How a cell is read: a number, or a date (newest, oldest). */
  values: "number" | "date";
  /** A price is compared ("cheapest"): with no header naming one, the column of amounts of money is. */
  money?: boolean;
  /**
   * The noun after an adjective's superlative ("the longest RANGE", "the biggest BATTERY"), a stem: a column it
   * names, when its cells are values, is the one compared, before any the adjective names.
   */
  noun?: string;
  /**
   * A comparative ("cheaper", "faster"): only the rows the question names compete ("Which plan is cheaper,
   * Team or Business?" is Team's row, not the cheapest plan's).
   */
  comparative?: true;
}


/** Adjectives whose superlative compares one kind of column. */
const ADJECTIVES: { words: RegExp; headers: RegExp; direction: "min" | "max"; values?: "date"; money?: true }[] = [
  { words: /^(?:cheapest|least expensive)$/, headers: /\b(?:price|pricing|cost|fee|rate|amount)s?\b/i, direction: "min", money: true },
  { words: /^(?:most expensive|priciest|costliest|dearest)$/, headers: /\b(?:price|pricing|cost|fee|rate|amount)s?\b/i, direction: "max", money: true },
  { words: /^(?:fastest|quickest)$/, headers: /\b(?:speed|throughput|rate)s?\b/i, direction: "max" },
  { words: /^slowest$/, headers: /\b(?:speed|throughput|rate)s?\b/i, direction: "min" },
  // "The biggest deal" of a pipeline's "Value per year": with no such header, the column of amounts of money.
  // "The largest office" of an "Employees" column: a place or a team is as large as its people.
  { words: /^(?:largest|biggest)$/, headers: /\b(?:size|capacity|area|storage|population|value|revenue|employees|staff|headcount|people|members)s?\b/i, direction: "max", money: true },
  { words: /^smallest$/, headers: /\b(?:size|capacity|area|storage|population|value|revenue|employees|staff|headcount|people|members)s?\b/i, direction: "min", money: true },
  { words: /^(?:heaviest)$/, headers: /\bweights?\b/i, direction: "max" },
  { words: /^(?:lightest)$/, headers: /\bweights?\b/i, direction: "min" },
  { words: /^(?:longest)$/, headers: /\b(?:length|duration|time)s?\b/i, direction: "max" },
  { words: /^(?:shortest)$/, headers: /\b(?:length|duration|time)s?\b/i, direction: "min" },
  { words: /^(?:newest|latest|most recent|most recently)$/, headers: /\b(?:date|year|released?|launched?|founded|opened|created|updated|since)\b/i, direction: "max", values: "date" },
  // "Which deal closes first?" of a "Close date" column.
  { words: /^(?:oldest|earliest|first|soonest)$/, headers: /\b(?:date|year|released?|launched?|founded|opened|created|updated|since)\b/i, direction: "min", values: "date" },
];
/** Comparatives, read as their superlative among the rows the question names. */
const COMPARATIVES: [RegExp, string][] = [
  [/^(?:cheaper|less expensive)$/, "cheapest"],
  [/^(?:more expensive|pricier|costlier|dearer)$/, "most expensive"],
  [/^(?:faster|quicker)$/, "fastest"],
  [/^slower$/, "slowest"],
  [/^(?:larger|bigger)$/, "largest"],
  [/^smaller$/, "smallest"],
  [/^heavier$/, "heaviest"],
  [/^lighter$/, "lightest"],
  [/^longer$/, "longest"],
  [/^shorter$/, "shortest"],
  [/^newer$/, "newest"],
];
/** Quantifier superlatives, whose noun names the column ("the most seats", "the fewest users"). */
const QUANTIFIERS: Record<string, "min" | "max"> = {
  most: "max", highest: "max", largest: "max", biggest: "max", greatest: "max", maximum: "max", max: "max",
  fewest: "min", least: "min", lowest: "min", smallest: "min", minimum: "min", min: "min",
};
/** Words between a quantifier and its noun that are not the noun ("the most paid seats" reads "seats"). */
const SKIPPED = new Set(["the", "a", "an", "number", "of", "amount", "paid", "total", "monthly", "yearly", "annual"]);

/** The superlative a question asks for, or null. */
export function superlativeOf(question: string): Superlative | null {
  const words = wordsOf(question.toLowerCase());
  for (let i = 0; i < words.length; i++) {
    const two = `${words[i]} ${words[i + 1] ?? ""}`;
    const comparative = COMPARATIVES.find(([form]) => form.test(two) || form.test(words[i]!));
    const said = comparative ? (comparative[0].test(two) ? two : words[i]!) : null;
    for (const adjective of ADJECTIVES) {
      const phrase = said ?? (adjective.words.test(two) ? two : adjective.words.test(words[i]!) ? words[i]! : null);
      if (phrase === null || (comparative && !adjective.words.test(comparative[1]))) continue;
      const noun = nounAfter(words, i + phrase.split(" ").length);
      return {
        asked: [...phrase.split(" ").map(stem), ...(noun ? [noun] : [])],
        compares: (h) => adjective.headers.test(h),
        direction: adjective.direction,
        values: adjective.values ?? "number",
        money: adjective.money,
        ...(noun ? { noun } : {}),
        ...(comparative ? { comparative: true as const } : {}),
      };
    }
    const direction = QUANTIFIERS[words[i]!];
    if (!direction) continue;
    const nounStem = nounAfter(words, i + 1);
    if (!nounStem) continue;
    return { asked: [stem(words[i]!), nounStem], compares: (h) => namedBy(h, nounStem), direction, values: "number" };
  }
  return null;
}

/** The stem of the noun at `from` past articles and the like ("the most paid seats" reads "seats"), or null. */
function nounAfter(words: string[], from: number): string | null {
  let n = from;
  while (n < words.length && SKIPPED.has(words[n]!)) n++;
  const noun = words[n];
  return noun && /^\p{L}{3,}$/u.test(noun) ? stem(noun) : null;
}

/** A cell opening with its value: a number, perhaps after a currency sign or a comparison. */
const VALUE_FIRST = /^\W*[~≈<>≤≥]?\s*(?:\p{Sc}\s*)?\d/u;

/** Whether a header names the noun (a stem). */
const namedBy = (header: string, noun: string) => wordsOf(header.toLowerCase()).some((w) => stem(w) === noun);

/**
 * A cell (as written: emphasis and code marks are dropped here) as a comparable value: its first number
 * ("€1,200/mo" 1200), "free" 0, "unlimited" ∞; NaN when none.
 */
export function cellValue(cell: string, values: Superlative["values"]): number {
  const text = cell.replace(/[*_`~]/g, "").trim().toLowerCase();
  if (values === "date") {
    const parsed = Date.parse(text);
    if (!Number.isNaN(parsed)) return parsed;
    const year = /\b(1[5-9]\d\d|2\d\d\d)\b/.exec(text);
    return year ? Date.UTC(Number(year[1]), 0, 1) : NaN;
  }
  if (/^(?:unlimited|no limit|infinite|∞)\b/.test(text)) return Infinity;
  if (/^(?:free|none|zero|nothing)\b/.test(text)) return 0;
  const number = /(-?\d[\d,]*(?:\.\d+)?)\s*([a-zµ]+)?/.exec(text);
  if (!number) return NaN;
  return Number(number[1]!.replace(/,/g, "")) * (UNIT_SCALE[number[2] ?? ""] ?? 1);
}

/**
 * Units a column may mix, each to one scale per kind: a duration in seconds, a length in metres, a size in
 * bytes, a count by its multiplier ("2 hours" is longer than "45 minutes"). A bare "m" is left alone
 * (metres or millions).
 */
const UNIT_SCALE: Record<string, number> = Object.fromEntries(
  (
    [
      [["ms", "millisecond", "milliseconds"], 0.001],
      [["s", "sec", "secs", "second", "seconds"], 1],
      [["min", "mins", "minute", "minutes"], 60],
      [["h", "hr", "hrs", "hour", "hours"], 3600],
      [["d", "day", "days"], 86_400],
      [["wk", "wks", "week", "weeks"], 604_800],
      [["mo", "month", "months"], 2_629_800],
      [["y", "yr", "yrs", "year", "years"], 31_557_600],
      [["mm", "millimetre", "millimetres", "millimeter", "millimeters"], 0.001],
      [["cm", "centimetre", "centimetres", "centimeter", "centimeters"], 0.01],
      [["metre", "metres", "meter", "meters"], 1],
      [["km", "kilometre", "kilometres", "kilometer", "kilometers"], 1000],
      [["in", "inch", "inches"], 0.0254],
      [["ft", "foot", "feet"], 0.3048],
      [["mi", "mile", "miles"], 1609.344],
      [["b", "byte", "bytes"], 1],
      [["kb", "kib"], 1024],
      [["mb", "mib"], 1024 ** 2],
      [["gb", "gib"], 1024 ** 3],
      [["tb", "tib"], 1024 ** 4],
      [["k", "thousand"], 1e3],
      [["million", "mn"], 1e6],
      [["bn", "billion"], 1e9],
    ] as [string[], number][]
  ).flatMap(([units, scale]) => units.map((u) => [u, scale])),
);

/**
 * Indexes (into `sentences`, a page's) of the rows holding the extreme of a column the superlative compares,
 * one per table (ties: each). A table needs two comparable rows; for a comparative, two the question names
 * (`asked`).
 */
export function extremeRows(sentences: Sentence[], superlative: Superlative, asked: (row: Sentence) => boolean = () => true): Set<number> {
  const tables = new Map<number, { index: number; value: number }[]>();
  sentences.forEach((s, index) => {
    if (!s.table || (superlative.comparative && !asked(s))) return;
    // Of the headers naming what is compared, the first whose cell reads as a value: "Close date", not "Value
    // per year", is the date of a pipeline ("Which account closes first?").
    const named = s.table.headers.flatMap((h, i) => (superlative.compares(h) ? [i] : []));
    const valued = (i: number) => !Number.isNaN(cellValue(s.table!.cells[i]!, superlative.values));
    // "The longest range" of a "Range" column of distances, though "longest" names lengths and times.
    // Its cells must open with their value ("110 km", "€1,499"): a "Model" column's "Trail T2" is a name.
    const byNoun =
      superlative.noun === undefined ? -1 : s.table.headers.findIndex((h, i) => namedBy(h, superlative.noun!) && VALUE_FIRST.test(s.table!.cells[i]!) && valued(i));
    let column = byNoun >= 0 ? byNoun : (named.find(valued) ?? named[0] ?? -1);
    // "The most expensive hotel" of a "Daily limit" column of amounts in EUR.
    if (column < 0 && superlative.money) column = s.table.cells.findIndex((cell) => MONEY.test(cell));
    if (column < 0) return;
    const cell = s.table.cells[column]!;
    // A dash or "n/a" says there is nothing to compare.
    if (!/\p{L}|\p{N}/u.test(cell) || /^n\/?a$/i.test(cell.trim())) return;
    const rows = tables.get(s.table.id) ?? [];
    rows.push({ index, value: cellValue(cell, superlative.values) });
    tables.set(s.table.id, rows);
  });
  const out = new Set<number>();
  for (const rows of tables.values()) {
    const values = rows.map((r) => r.value).filter((v) => !Number.isNaN(v));
    if (values.length < 2) continue;
    const extreme = superlative.direction === "min" ? Math.min(...values) : Math.max(...values);
    for (const row of rows) if (row.value === extreme || (superlative.direction === "max" && Number.isNaN(row.value))) out.add(row.index);
  }
  return out;
}

/** A row's words with what it says as the extreme: the question's superlative words. */
export function sayingExtreme(words: Words, superlative: Superlative): Words {
  const asked = new Set(superlative.asked);
  return { has: (s) => asked.has(s) || words.has(s) };
}
