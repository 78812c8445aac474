// Plain-text sentences of a wiki page and the light stemming used to match query terms against them
// (FTS5's porter stemmer is not exposed; this only needs to agree on plurals and simple verb forms).
import { MENT_NOUNS_LIST, TION_NOUNS_LIST, OUR_WORDS_LIST, SHIFTED_ADVERBS_LIST } from "./words/stems";
import { wordsOf } from "../../retrieval";
import { CJK, hyphenJoined } from "../../retrieval/terms";
import { englishFrequency } from "../../lib/english-frequency";
import { hardWrap } from "../../lib/hard-wrap";
import { withAbbreviationsJoined } from "../../lib/sentence-ends";
import { proseUnits, withoutEmphasis, type ProseUnit } from "../../ingest/markdown-prose";
import { withoutRepeatedLead } from "../../lib/repeated-lead";

/** Words a coverage is counted over: a set of stems, or a text's stems worked out as they are asked for. */
export interface Words {
  has(stem: string): boolean;
}

export interface Sentence {
  text: string;
  /** Stems of the sentence's words (StemsOf: only the ones asked about are looked for). */
  stems: Words;
  /** The whole sentence, when `text` is one piece of an overlong one (answers quote whole sentences). */
  whole: string;
  /** Stems of the headings the sentence sits under (what its section is about, like a page's title). */
  context: Set<string>;
  /** A list item's list (markdown-prose.ts): a numbered list is a procedure, quoted whole for a "how do I". */
  list?: { id: number; ordered: boolean };
  /** A commented command line ("run the whole test suite: npm test"): what a "how do I" asks for. */
  command?: true;
  /** A table row (its own words are its cells; its headers are context). */
  row?: true;
  /** The heading the sentence sits right under (plain text), if any. */
  heading?: string;
  /** A table row's table (its number in the page), cells as written and their headers (superlative.ts compares them). */
  table?: { id: number; cells: string[]; headers: string[] };
  /** Stems of the question the sentence answers, when one opens its paragraph ("No buttermilk? Stir …"). */
  asked?: Set<string>;
}

/** A sentence ends at . ! ? (or CJK 。！？) followed by space and what can start a sentence. */
const SENTENCE_END = /(?<=[.!?…])\s+(?=["“'(\[]?[\p{Lu}\p{N}])|(?<=[。！？])/u;
const MAX_SENTENCE_CHARS = 600;
const NO_CONTEXT: Set<string> = new Set();

/**
 * The page's prose as sentences (markdown-prose.ts: paragraphs, list items, table rows; no code, headings or
 * generated lines), with link syntax, tags and emphasis marks removed.
 */
export function sentencesOf(markdown: string): Sentence[] {
  const out: Sentence[] = [];
  // The extractive lead is a copy of a later sentence: read where the page says it, in its reading order.
  for (const unit of proseUnits(withoutRepeatedLead(markdown))) {
    if (unit.kind === "label" || unit.kind === "heading") continue; // it heads the sentences after it (their context)
    const prose = plainInline(unit.text);
    // A table row's headers are context, as headings are, and its own words are its cells: a "Default" column
    // header matched every row of a settings table ("What is the default retry count?" quoted them all).
    const labels = [...unit.headings, ...(unit.headers ?? [])];
    let context = labels.length > 0 ? stemSet(labels.join(" ")) : NO_CONTEXT;
    let asked: Set<string> | undefined;
    const cellStems = unit.kind === "row" && unit.cells ? new StemsOf(withJoinedWords(plainInline(unit.cells.join("; ")))) : null;
    for (const piece of unit.kind === "row" || unit.kind === "command" ? [prose] : withAbbreviationsJoined(prose.split(SENTENCE_END))) {
      const text = piece.trim();
      if (!/[\p{L}\p{N}]/u.test(text)) continue;
      // "Install the toolchain with:" is quoted with the code it introduces (its words are still its own).
      const whole = unit.code?.length && text.endsWith(":") ? `${text} ${unit.code.map((line) => `\`${line.replaceAll("`", "")}\``).join("; ")}` : text;
      for (const chunk of hardWrap(text, MAX_SENTENCE_CHARS))
        out.push({ text: chunk, stems: cellStems ?? new StemsOf(withJoinedWords(chunk)), whole, context, list: unit.list, heading: unit.headings.at(-1), ...(unit.kind === "command" ? { command: true as const } : unit.kind === "row" ? { row: true as const, ...tableOf(unit) } : {}), ...(asked ? { asked } : {}) });
      // A question heads the sentences after it in its paragraph, as in a FAQ ("Q: Can I get a refund? A: Yes, …").
      if (isQuestion(text)) {
        asked = stemSet(text);
        context = new Set([...context, ...asked]);
      }
    }
  }
  return out;
}

/** A row's table, cells (as written) and headers, when it has its headers (cells and headers pair one to one). */
function tableOf(unit: ProseUnit): Pick<Sentence, "table"> {
  const { table, cells, headers } = unit;
  return table !== undefined && cells && headers && cells.length === headers.length ? { table: { id: table, cells, headers } } : {};
}

/** A text with its hyphenated words also written as one, for its stems ("Wi-Fi" says "wifi" too). */
function withJoinedWords(text: string): string {
  const joined = hyphenJoined(text);
  return joined.length ? `${text} ${joined.join(" ")}` : text;
}

/** A sentence that asks (ends in "?", perhaps inside quotes or brackets): it states nothing. */
export const isQuestion = (sentence: string) => /\?["”'’)\]]*\s*$/.test(sentence);

/**
 * Inline Markdown as plain text: wiki links and links keep their labels; tags and emphasis go. Code spans
 * stay as written, marks and all: `orbitctl db promote --region <region>` lost its `<region>` as a tag.
 */
function plainInline(text: string): string {
  const code: string[] = [];
  const plain = text
    .replace(/(`+)([^`\n]+?)\1(?!`)/g, (_, _marks: string, inner: string) => `\u0000${code.push(inner.trim()) - 1}\u0000`)
    .replace(/\[\[([^\]|\n]+)(?:\|([^\]\n]*))?\]\]/g, (_, slug: string, label?: string) => label || slug.replaceAll("-", " "))
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
    .replace(/<[^>\n]+>/g, " ")
    .replace(/`+/g, "");
  return withoutEmphasis(plain)
    .replace(/\s+/g, " ")
    .replace(/\u0000(\d+)\u0000/g, (_, i: string) => `\`${code[Number(i)]}\``);
}

export function stemSet(text: string): Set<string> {
  return new Set(wordsOf(text).map(stem));
}

/** As retrieval/terms.ts reads words: a dotted number ("4.2") is one. */
const WORD_AT = /\d+(?:\.\d+)+|[\p{L}\p{N}]+/uy;

/**
 * A text's stems, looked for one asked stem at a time (and remembered): a question asks about a handful, and
 * stemming every word of the five pages read for it was most of the evidence's time (~0.6 ms of a /context
 * at 100k pages). The same answer as stemSet(text).has(stem): a word whose stem is `stem` either is one of
 * the mapped forms (number words, units, irregular verbs: REVERSE) or starts with the stem less its last
 * letter (stemOnce only ever changes a word's end), so only the words starting so are stemmed.
 */
export class StemsOf implements Words {
  private lower: string | undefined;
  private known: Map<string, boolean> | undefined;
  /** Every stem, for a text of CJK pairs (wordsOf splits those its own way). */
  private every: Set<string> | undefined;

  constructor(private readonly text: string) {}

  has(stemmed: string): boolean {
    if (this.every) return this.every.has(stemmed);
    const known = (this.known ??= new Map());
    let found = known.get(stemmed);
    if (found !== undefined) return found;
    const lower = (this.lower ??= this.text.toLowerCase());
    if (CJK.test(lower)) return (this.every = stemSet(this.text)).has(stemmed);
    found = probesOf(stemmed).some((probe) => hasWordStemmed(lower, probe, stemmed));
    known.set(stemmed, found);
    return found;
  }
}

/** Whether `lower` has a word starting with `probe` whose stem is `stemmed`. */
function hasWordStemmed(lower: string, probe: string, stemmed: string): boolean {
  for (let at = lower.indexOf(probe); at >= 0; at = lower.indexOf(probe, at + 1)) {
    const word = wordAt(lower, at);
    if (word !== undefined && stem(word) === stemmed) return true;
  }
  return false;
}

const WORDS = /\d+(?:\.\d+)+|[\p{L}\p{N}]+/gu;
const RUN_CHAR = /[\p{L}\p{N}.]/u;
/**
 * The word starting at `at` as wordsOf reads the run of letters, digits and dots around it, or undefined when
 * `at` is inside a word: "1.5.0" is one word, "école2.4" is "école2" and "4", "2.4countries" "2.4" and "countries".
 */
function wordAt(lower: string, at: number): string | undefined {
  let start = at;
  while (start > 0 && RUN_CHAR.test(charBefore(lower, start))) start -= charBefore(lower, start).length;
  if (start === at) {
    WORD_AT.lastIndex = at;
    return WORD_AT.exec(lower)?.[0];
  }
  WORDS.lastIndex = start;
  for (let m = WORDS.exec(lower); m && m.index <= at; m = WORDS.exec(lower)) if (m.index === at) return m[0];
  return undefined;
}

/** The character (a whole code point) ending just before `at`. */
function charBefore(text: string, at: number): string {
  const low = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text[at - 1]!;
}

/** Mapped words by their stem ("found" under "find", "eleven" under "11"). */
let reverse: Map<string, string[]> | undefined;
const probes = new Map<string, string[]>();

/** Where words of stem `stemmed` may start: the stem less its last letter, and the mapped words of that stem. */
function probesOf(stemmed: string): string[] {
  let out = probes.get(stemmed);
  if (out) return out;
  if (!reverse) {
    reverse = new Map();
    for (const word of [...Object.keys(NUMBER_WORDS), ...Object.keys(UNITS), ...Object.keys(IRREGULAR), ...Object.keys(ACTION_NOUNS)]) {
      const s = stem(word);
      reverse.set(s, [...(reverse.get(s) ?? []), word]);
    }
  }
  const prefix = stemmed.length > 1 ? stemmed.slice(0, -1) : stemmed;
  out = [prefix, ...(reverse.get(stemmed) ?? []).filter((word) => !word.startsWith(prefix))];
  if (probes.size >= MAX_REMEMBERED_STEMS) probes.clear();
  probes.set(stemmed, out);
  return out;
}

/** Number words match their digits ("eleven" ↔ 11): pages and questions write them either way. */
const NUMBER_WORDS: Record<string, string> = Object.fromEntries(
  (
    "one 1 two 2 three 3 four 4 five 5 six 6 seven 7 eight 8 nine 9 ten 10 eleven 11 twelve 12 thirteen 13 fourteen 14 " +
    "fifteen 15 sixteen 16 seventeen 17 eighteen 18 nineteen 19 twenty 20 thirty 30 forty 40 fifty 50 sixty 60 " +
    "seventy 70 eighty 80 ninety 90 hundred 100 thousand 1000 million 1000000 billion 1000000000"
  )
    .split(" ")
    .flatMap((x, i, all) => (i % 2 === 0 ? [[x, all[i + 1]!]] : [])),
);
/** British and American spellings of units, and their abbreviations after a number, as one form. */
const UNITS: Record<string, string> = {
  metre: "meter", metres: "meter", meters: "meter", m: "meter", centimetre: "centimeter", centimetres: "centimeter", centimeters: "centimeter", cm: "centimeter",
  millimetre: "millimeter", millimetres: "millimeter", millimeters: "millimeter", mm: "millimeter", kilometre: "kilometer", kilometres: "kilometer", kilometers: "kilometer", km: "kilometer",
  litre: "liter", litres: "liter", liters: "liter", kg: "kilogram", kilograms: "kilogram", kilogramme: "kilogram", ft: "foot", feet: "foot", foot: "foot", mi: "mile", miles: "mile",
};

/**
 * Irregular verb forms as their base form ("found"→find, "sang"→sing): a page says "they found it" of a
 * question asking "where did they find it"; the suffix rules below cannot see these.
 */
const IRREGULAR: Record<string, string> = Object.fromEntries(
  (
    "arose:arise arisen:arise awoke:awake was:be were:be been:be became:become begun:begin began:begin " +
    "bore:bear borne:bear bit:bite bitten:bite blew:blow blown:blow broke:break broken:break " +
    "brought:bring built:build burnt:burn bought:buy caught:catch chose:choose chosen:choose came:come " +
    "dealt:deal dug:dig did:do done:do drew:draw drawn:draw drank:drink drunk:drink drove:drive " +
    "driven:drive ate:eat eaten:eat fell:fall fallen:fall fed:feed felt:feel fought:fight found:find " +
    "fled:flee flew:fly flown:fly forgot:forget forgotten:forget froze:freeze frozen:freeze got:get " +
    "gotten:get gave:give given:give went:go gone:go grew:grow grown:grow hung:hang heard:hear hid:hide " +
    "hidden:hide held:hold kept:keep knew:know known:know laid:lay led:lead left:leave lent:lend lain:lie " +
    "lit:light lost:lose made:make meant:mean met:meet paid:pay rode:ride ridden:ride rang:ring rung:ring " +
    "rose:rise risen:rise ran:run said:say saw:see seen:see sought:seek sold:sell sent:send shook:shake " +
    "shaken:shake shot:shoot shown:show shrank:shrink sang:sing sung:sing sank:sink sunk:sink sat:sit " +
    "slept:sleep slid:slide spoke:speak spoken:speak spent:spend spun:spin stood:stand stole:steal " +
    "stolen:steal stuck:stick struck:strike swore:swear sworn:swear swept:sweep swam:swim swum:swim " +
    "took:take taken:take taught:teach tore:tear torn:tear told:tell thought:think threw:throw " +
    "thrown:throw understood:understand woke:wake worn:wear wore:wear won:win wrote:write written:write " +
    "withdrew:withdraw withdrawn:withdraw died:die dying:die " +
    // Regular, but too short for the suffix rules below ("used", "using" ↔ use).
    "used:use using:use owed:owe owing:owe aged:age aging:age tied:tie tying:tie " +
    "men:man women:woman children:child mice:mouse feet:foot teeth:tooth geese:goose"
  )
    .split(" ")
    .map((pair) => pair.split(":") as [string, string]),
);
/**
 * Nouns of an action written unlike its verb, as that verb ("When do we fly?" of a table's "Flight" column,
 * "arrival" ↔ arrives, "renewal" ↔ renew, "death" ↔ died), with their plurals. A list, not a rule: most
 * "-al" and "-ure" words are no verb's ("signal", "portal", "legal", "pressure").
 */
const ACTION_NOUNS: Record<string, string> = Object.fromEntries(
  (
    "arrival:arrive approval:approve removal:remove renewal:renew refusal:refuse proposal:propose " +
    "withdrawal:withdraw dismissal:dismiss referral:refer denial:deny burial:bury retrieval:retrieve " +
    "disposal:dispose survival:survive rental:rent departure:depart failure:fail closure:close exposure:expose " +
    "disclosure:disclose seizure:seize flight:fly growth:grow death:die choice:choose proof:prove speech:speak " +
    "loss:lose delivery:deliver payment:pay marriage:marry usage:use storage:store coverage:cover leakage:leak breakage:break weight:weigh"
  )
    .split(" ")
    .flatMap((pair) => {
      const [noun, verb] = pair.split(":") as [string, string];
      const plural = noun.endsWith("ss") || noun.endsWith("ch") ? `${noun}es` : noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}s`;
      return [[noun, verb], [plural, verb]];
    }),
);
/** -ment nouns whose stem is no verb of theirs. */
const MENT_NOUNS = new Set(MENT_NOUNS_LIST);
/** -tion nouns whose verb-looking stem says something else. */
const TION_NOUNS = new Set(TION_NOUNS_LIST);
/** -our words that are not British spellings of -or ones. */
const OUR_WORDS = new Set(OUR_WORDS_LIST);

/** Stems already worked out: every page read for a question is stemmed word by word (most of the evidence's time). */
const stems = new Map<string, string>();
const MAX_REMEMBERED_STEMS = 50_000;

/** voices→voic, voiced→voic, racing→rac, countries→country; short words stay as they are. */
export function stem(word: string): string {
  let known = stems.get(word);
  if (known === undefined) {
    if (stems.size >= MAX_REMEMBERED_STEMS) stems.clear();
    stems.set(word, (known = stemOnce(word)));
  }
  return known;
}

/** Adverbs that say something else than their adjective ("hardly" is not "hard", "likely" not "like"). */
const SHIFTED_ADVERBS = new Set(SHIFTED_ADVERBS_LIST);

/**
 * The adjective an "-ly" adverb is made from, when English writes it, else null: a word at least a twentieth
 * as frequent as the adverb (SUBTLEX), so a word that only looks like one keeps its own stem ("supply" is no
 * "supp", "simply" no "simp").
 */
function adjectiveOf(adverb: string): string | null {
  if (SHIFTED_ADVERBS.has(adverb)) return null;
  const { counts } = englishFrequency();
  const base = adverb.slice(0, -2);
  const candidates = adverb.endsWith("ically") ? [adverb.slice(0, -4), base] : adverb.endsWith("ily") ? [`${adverb.slice(0, -3)}y`] : adverb.endsWith("bly") ? [`${base}le`] : [base];
  const adverbCount = counts.get(adverb) ?? 0;
  // An adverb English does not write is one only when its adjective looks like one ("recursive"): "Spendly",
  // "Grammarly" are names, not "spend" and "grammar".
  const adjectiveLike = (c: string) => adverbCount > 0 || ADJECTIVE_ENDING.test(c);
  return candidates.find((c) => c.length > 3 && adjectiveLike(c) && (counts.get(c) ?? 0) >= Math.max(2, adverbCount / 20)) ?? null;
}
const ADJECTIVE_ENDING = /(?:ive|al|ous|ful|less|ic|able|ible|ent|ant|ate)$/;

/**
 * A three-letter stem left by "-ed" or "-ing" is its four-letter word's when English writes that with an "e"
 * ("noted", "noting" ↔ note; "named" ↔ name; "freed" ↔ free); "added", "boxed", "owned" keep theirs.
 */
function withSilentE(stemmed: string): string {
  if (stemmed.length !== 3) return stemmed;
  const { counts } = englishFrequency();
  const word = `${stemmed}e`;
  // A word English writes, however capitalized ("come" is mostly "Come" in subtitles), and not a rare one
  // ("ende", "fixe": "ended", "fixed" keep "end", "fix").
  return (counts.get(word) ?? 0) >= SILENT_E_MIN_COUNT ? word : stemmed;
}
/** SUBTLEX occurrences (of 51M words) a word with a silent "e" needs to be one. */
const SILENT_E_MIN_COUNT = 100;

function stemOnce(word: string): string {
  let w = NUMBER_WORDS[word] ?? UNITS[word] ?? IRREGULAR[word] ?? ACTION_NOUNS[word] ?? word;
  // A number with only zeros after its point is that number: "95.0%" says 95.
  if (/^\d+\.0+$/.test(w)) return w.slice(0, w.indexOf("."));
  if (w.length <= 3 || /\d/.test(w)) return w;
  // An adverb as its adjective when English writes that ("recursively" ↔ recursive, "easily" ↔ easy,
  // "automatically" ↔ automatic, "possibly" ↔ possible); six letters or more ("early", "apply" stay), and
  // "-ply" only as itself ("deeply" ↔ deep; "supply" is no "supple").
  if (w.endsWith("ly") && w.length > 5) {
    const adjective = adjectiveOf(w);
    if (adjective) w = adjective;
  }
  if (w.endsWith("ies") && w.length > 4) return `${w.slice(0, -3)}y`;
  // "studied" ↔ study, "applied" ↔ apply, as "studies" is.
  if (w.endsWith("ied") && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith("ing") && w.length > 5) w = withSilentE(w.slice(0, -3));
  else if (w.endsWith("ed") && w.length > 4) w = withSilentE(w.slice(0, -2));
  else if (/(ch|sh|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  // "-is" is a Latin singular ("basis", "analysis") unless what is left is an English word ("taxis", "skis").
  else if (w.endsWith("s") && !/(ss|us)$/.test(w) && (!w.endsWith("is") || englishFrequency().lowerCase.has(w.slice(0, -1)))) {
    w = w.slice(0, -1);
    // A plural "-ing" noun as its verb, as the singular is: "fillings" ↔ filling ↔ fill, "meetings" ↔ meet.
    if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  }
  if (/([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
  // British spelling doubles an l American does not ("cancelled" ↔ canceled ↔ cancel, "travelling", "modelled"):
  // a word of two syllables or more ending in one vowel and "ll" drops one, with or without its ending, so the
  // stem is the same ("installed" and "install" both "instal"); "filled" ↔ fill keeps its own.
  if (/[aeiouy][^aeiouy]+[aeiou]ll$/.test(w)) w = w.slice(0, -1);
  // Who a verb's action is done by or to, as its verb: "attendees" ↔ attended, "employee" ↔ employ. After the
  // doubled letter, so "committee" does not become "commit".
  if (w.endsWith("ee") && w.length > 6) return w.slice(0, -2);
  // A "-sion" noun as its verb: "decisions" ↔ decide, "conclusion" ↔ conclude, "expansion" ↔ expand.
  // "-ssion" nouns are their verb plus "ion" ("discussion" ↔ discuss, "expression"), and "-mission" is "-mit"
  // ("submission" ↔ submit, "permission" ↔ permit; not "commission" ↔ commit).
  if (w.endsWith("mission") && w.length > 8 && w !== "commission") return `${w.slice(0, -7)}mit`;
  if (w.endsWith("ssion") && w.length > 7) return w.slice(0, -3);
  if (w.endsWith("sion") && w.length > 6) return `${w.slice(0, -4)}d`;
  // A "-tion" noun as its verb when English writes it: "escalations" ↔ escalate, "deletion" ↔ delete,
  // "connection" ↔ connect. Short stems stay ("station" is no "state", "notion" no "note", "portion" no "port"),
  // and so do "-ition" nouns ("definition" is no "definite", "petition" no "petite").
  if (/(?:[aue]t|[cp]t)ion$/.test(w) && w.length > 6 && !TION_NOUNS.has(w)) {
    const base = w.slice(0, -3);
    const words = englishFrequency().lowerCase;
    if (/[aue]t$/.test(base) && base.length >= 5 && words.has(`${base}e`)) w = `${base}e`;
    else if (/[cp]t$/.test(base) && base.length >= 6 && words.has(base)) w = base;
  }
  // A "-ment" noun as its verb: "reimbursements" ↔ reimbursed, "requirement" ↔ require, "investment" ↔ invest
  // (six letters or more before it; "department" is not "depart").
  if (w.endsWith("ment") && w.length >= 10 && !MENT_NOUNS.has(w)) w = w.slice(0, -4);
  // A four-letter word keeps its "e": "note" is no "not", "same" no "Sam", "code" no "cod" (withSilentE finds it
  // again in "noted", "coding").
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  // British -our spellings as American ones (colour→color, honours→honor).
  if (w.length > 4 && w.endsWith("our") && !OUR_WORDS.has(w)) w = `${w.slice(0, -3)}or`;
  return w;
}
