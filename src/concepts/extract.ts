// A source's concepts, without a model: names and recurring noun phrases from the NLP library, merged
// within the source (case, plurals, "Curie" under "Marie Curie"), ranked by salience, bounded.
import { proseUnits, withoutEmphasis, type ProseUnit } from "../ingest/markdown-prose";
import { cleanSurface, conceptKey, orgShortName, personFirstNameAlias, personSurnameAlias, sourceSurnameAlias } from "./keys";
import { isPersonName, pronounOf } from "./given-names";
import { CELL_SEPARATOR, findPhrases, lowerCaseReading, type Phrase } from "./nlp";
import { englishFrequency } from "../lib/english-frequency";
import { isLead, repeatedLead } from "../lib/repeated-lead";

/** Where a row's cells meet while its prose is cleaned (CELL_SEPARATOR once it is). */
const CELL_MARK = "\u0001";

export interface ConceptMention {
  pageSlug: string;
  surface: string;
  sentence: string;
}

export interface ExtractedConcept {
  /** Merge key (slug-shaped); the concept's page slug is resolved from it in the brain. */
  key: string;
  title: string;
  kind: "proper" | "phrase";
  /** Other keys this concept answers to in the brain (e.g. a surname). */
  aliasKeys: string[];
  /**
   * An organization's short name ("northwind" for Northwind Coffee), also in aliasKeys: when the brain
   * already has that short name as a concept of its own, this concept is that one (resolve.ts).
   */
  shortKey?: string;
  /** Every surface form seen, longest first: what inline links wrap. */
  surfaces: string[];
  salience: number;
  mentions: ConceptMention[];
}

export interface PageText {
  slug: string;
  title: string;
  markdown: string;
}

/** Concepts kept per source (the most salient): bounds rows, links and work on a 5,000-name text. */
export const MAX_CONCEPTS_PER_SOURCE = 40;
/** Mention sentences kept per concept and source. */
export const MAX_MENTIONS_PER_SOURCE = 3;
/** Text read per source: the NLP cost of a huge file stays bounded. */
const MAX_TEXT_CHARS = 60_000;
const MAX_SENTENCE_CHARS = 400;

/**
 * The prose of a page for NLP: its paragraphs, list items, table rows and bold labels (markdown-prose.ts), each ending
 * as a sentence, without link syntax or generated lines. Inline code keeps its text (a sentence such as
 * "Vault runs at `vault.internal:8200`" stays whole; `code: "blank"` blanks it instead, to tell which names
 * are found outside code). `kinds`: the units to read (the lead reads paragraphs only).
 */
export function proseOf(markdown: string, kinds: readonly ProseUnit["kind"][] = ["paragraph", "item", "row", "label", "heading"], code: "keep" | "blank" = "keep"): string {
  // A heading is read only when it is a person's name: title-cased section names ("Rollback Plan") that
  // runbooks share are no concepts.
  const units = proseUnits(markdown).filter((u) => kinds.includes(u.kind) && (u.kind !== "heading" || isPersonName(u.text)));
  const texts: string[] = [];
  units.forEach((u, i) => {
    // A name heading the text right under it reads with it ("Maria Okafor: Leads the platform group."), so
    // its mention says something; a FAQ's question (ending in "?") stays a sentence of its own.
    const next = units[i + 1];
    if ((u.kind === "heading" || u.kind === "label") && !/[.!?:;…]$/.test(u.text) && (next?.kind === "paragraph" || next?.kind === "item") && next.headings.at(-1) === u.text) {
      next.text = `${u.text}: ${next.text}`;
      return;
    }
    const text = plainProse(u, code);
    if (/[\p{L}\p{N}]/u.test(text)) texts.push(text);
  });
  return texts.join("\n\n");
}

/**
 * The sentence that goes on about the one person a sentence names, by sentence: the next in its paragraph,
 * when it says "he" or "she" and names no one ("Maria Santos is the chief executive officer. Before founding
 * Tidewater she led the data platform team at Intel."): quoted with the mention, it says more of that person.
 */
function personFollowUps(sentences: string[], phrases: Phrase[], continues: boolean[]): Map<number, string> {
  const followUps = new Map<number, string>();
  if (!sentences.some((sentence) => THIRD_PERSON.test(sentence))) return followUps;
  // Who a sentence may name: a known first name's, or any two or three capitalized words ending in no English
  // word ("Kenji Watanabe"), so that a second name makes the pronoun ambiguous.
  const people = new Map<number, string[]>();
  for (const p of phrases) {
    const name = cleanSurface(p.surface);
    if (p.kind === "proper" && (isPersonName(name) || looksLikeName(name))) people.set(p.sentence, [...(people.get(p.sentence) ?? []), name]);
  }
  for (const [at, names] of people) {
    const next = sentences[at + 1]?.trim();
    if (names.length !== 1 || !next || !continues[at + 1] || people.has(at + 1) || next.includes(CELL_SEPARATOR.trim())) continue;
    // The pronoun is the person's by their first name ("she" is not Edwin), and no one else's the sentence
    // before already calls so ("In 1920 she founded Quill & Hart with her tutor Edwin Hart. She …" is not his).
    const pronoun = pronounIn(next);
    const takes = pronounOf(names[0]!.split(/\s+/)[0]!);
    if (pronoun && (takes === "either" || takes === pronoun) && pronounIn(sentences[at]!) !== pronoun) followUps.set(at, next);
  }
  return followUps;
}
/** Two or three capitalized words, the last no word English writes in lower case: perhaps someone's name. */
function looksLikeName(text: string): boolean {
  const words = text.split(/\s+/);
  return words.length >= 2 && words.length <= 3 && words.every((w) => /^\p{Lu}\p{Ll}/u.test(w)) && !englishFrequency().lowerCase.has(words.at(-1)!.toLowerCase());
}

const THIRD_PERSON = /\b(?:he|him|his|she|her|hers)\b/i;

/** The third-person pronoun a sentence uses ("he" or "she"), or null for none or both. */
function pronounIn(text: string): "he" | "she" | null {
  const he = /\b(?:he|him|his)\b/i.test(text);
  const she = /\b(?:she|her|hers)\b/i.test(text);
  return he === she ? null : he ? "he" : "she";
}

/**
 * A page's table rows as the NLP reads them (their cells: a header is a label, not a name) → as a mention
 * quotes them, with their headers: "Week: 1–7 March; Primary: Ines Duarte; Secondary: Kofi Mensah" says what
 * "1–7 March; Ines Duarte; Kofi Mensah" leaves out.
 */
function rowsWithHeaders(markdown: string): Map<string, string> {
  const rows = new Map<string, string>();
  if (!markdown.includes("|")) return rows;
  for (const u of proseUnits(markdown)) {
    if (u.kind !== "row" || !u.cells || !u.headers?.length) continue;
    const read = plainProse(u, "keep").replaceAll(CELL_SEPARATOR, "; ");
    rows.set(read, plainProse({ ...u, cells: undefined }, "keep"));
  }
  return rows;
}

/** A unit as plain prose, without link syntax or emphasis, ending as a sentence. */
function plainProse(u: ProseUnit, code: "keep" | "blank"): string {
  const inline = (u.cells?.join(CELL_MARK) ?? u.text)
    .replace(/\[\[([^\[\]|\n]+)\|([^\[\]\n]*)\]\]/g, "$2")
    .replace(/\[\[([^\[\]|\n]+)\]\]/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    // A code span is `x` with no space inside its edge: "`` quoted ''" (LaTeX-style quotes) is prose.
    .replace(/`([^`\s](?:[^`]*[^`\s])?)`/g, code === "keep" ? "$1" : " ")
    .replace(/`+/g, " ");
  const text = withoutEmphasis(inline)
    .replace(/\|+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\s*\u0001\s*/g, CELL_SEPARATOR);
  // An item or row is a sentence of its own, whether or not it ends like one.
  return u.kind === "paragraph" || /[.!?:;…。！？]$/.test(text) ? text : `${text}.`;
}

/** The phrases of the lead's sentence first, the others in reading order. */
function leadFirst(phrases: Phrase[], sentences: string[], lead: string): Phrase[] {
  const inLead = (p: Phrase) => isLead(sentences[p.sentence] ?? "", lead);
  return [...phrases.filter(inLead), ...phrases.filter((p) => !inLead(p))];
}

export function extractConcepts(pages: PageText[], docTitle: string): ExtractedConcept[] {
  const byKey = new Map<string, ExtractedConcept>();
  const firstSeen = new Map<string, string>();
  const repeated = (pageSlug: string, index: number, sentence: string) => {
    const at = `${pageSlug}#${index}`;
    const first = firstSeen.get(sentence);
    if (first === undefined) firstSeen.set(sentence, at);
    return first !== undefined && first !== at;
  };
  let budget = MAX_TEXT_CHARS;
  for (const page of pages) {
    if (budget <= 0) break;
    // A page's lead (lead.ts) is a copy of its most central sentence: tagged once, where the text says it (the
    // copies were ~4% of the tagging of CLAP NQ passages), and still read first, so its concepts' first mention is it.
    const { lead, rest } = repeatedLead(page.markdown);
    const prose = proseOf(rest).slice(0, budget);
    budget -= prose.length;
    const { sentences, phrases, continues } = findPhrases(prose);
    const followUp = personFollowUps(sentences, phrases, continues);
    const outsideCode = rest.includes("`") ? proseOf(rest, undefined, "blank") : null;
    const withHeaders = rowsWithHeaders(page.markdown);
    for (const phrase of lead === null ? phrases : leadFirst(phrases, sentences, lead)) {
      if (outsideCode !== null && !outsideCode.includes(phrase.surface)) continue; // a command or identifier, not a name
      // A sentence said twice (a page's lead repeats its most central sentence) counts once.
      const said = (sentences[phrase.sentence] ?? "").trim();
      if (repeated(page.slug, phrase.sentence, said)) continue;
      const surface = cleanSurface(phrase.surface);
      const key = conceptKey(surface, phrase.kind);
      if (!key) continue;
      let concept = byKey.get(key);
      if (!concept) {
        concept = { key, title: surface, kind: phrase.kind, aliasKeys: [], surfaces: [], salience: 0, mentions: [] };
        byKey.set(key, concept);
      }
      if (!concept.surfaces.includes(surface)) concept.surfaces.push(surface);
      concept.salience += 1;
      const read = (sentences[phrase.sentence] ?? "").trim().replaceAll(CELL_SEPARATOR, "; ");
      const next = phrase.kind === "proper" && isPersonName(surface) ? followUp.get(phrase.sentence) : undefined;
      const sentence = (withHeaders.get(read) ?? (next ? `${read} ${next}` : read)).slice(0, MAX_SENTENCE_CHARS);
      if (sentence && concept.mentions.length < MAX_MENTIONS_PER_SOURCE && !concept.mentions.some((m) => m.sentence === sentence)) {
        concept.mentions.push({ pageSlug: page.slug, surface, sentence });
      }
    }
  }
  namesInTitle(byKey, docTitle, pages[0]?.slug);
  mergeShortNames(byKey);
  const titleKey = docTitle.toLowerCase();
  for (const c of byKey.values()) {
    // Named in the title (a name of two words or more, or the whole title): central to the source.
    const inTitle = c.title.includes(" ") ? titleKey.includes(c.title.toLowerCase()) : titleKey === c.title.toLowerCase();
    if (inTitle) c.salience += 3;
    if (c.kind === "phrase") c.salience *= 0.5; // a name weighs more than a common noun phrase
    c.surfaces.sort((a, b) => b.length - a.length);
    // Across sources, a person's surname only (within this one, mergeShortNames took a name's last word
    // unless it is a name English knows on its own: sourceSurnameAlias).
    const surname = c.kind === "proper" ? personSurnameAlias(c.title) : null;
    if (surname && surname !== c.key) c.aliasKeys.push(surname);
    // And by first name alone (as within a source, mergeShortNames), while no other person of the brain has it.
    const firstName = c.kind === "proper" ? personFirstNameAlias(c.title) : null;
    if (firstName && firstName !== c.key && !c.aliasKeys.includes(firstName)) c.aliasKeys.push(firstName);
    const short = shortKeyOf(c);
    if (short) {
      c.shortKey = short;
      c.aliasKeys.push(short);
    }
  }
  return [...byKey.values()]
    .filter((c) => c.mentions.length > 0)
    .sort((a, b) => b.salience - a.salience || a.key.localeCompare(b.key))
    .slice(0, MAX_CONCEPTS_PER_SOURCE);
}

/**
 * Names a source's title gives that its text may not repeat: a paper's notes titled "Okafor et al. (2023):
 * sleep and memory in shift workers" never say "Okafor" again, and a reading group's notes that discuss
 * "Okafor et al." found no second source. Only names of words English does not write in lower case (so a
 * title-cased "Expense Policy" or "Getting Started With The API" names nothing); the title is their sentence,
 * unless the text names the name's first word.
 */
function namesInTitle(byKey: Map<string, ExtractedConcept>, docTitle: string, pageSlug: string | undefined) {
  if (!pageSlug || !/\p{Lu}/u.test(docTitle)) return;
  const { lowerCase } = englishFrequency();
  for (const phrase of findPhrases(docTitle).phrases) {
    if (phrase.kind !== "proper") continue;
    const surface = cleanSurface(phrase.surface);
    if (surface.split(/\s+/).some((w) => lowerCase.has(w.toLowerCase().replace(/[.'’]+$/, "")))) continue;
    const key = conceptKey(surface, "proper");
    if (!key || byKey.has(key)) continue;
    // What the text says of the name's first word is said of it: the guide titled "DevDays Lisbon 2027" says
    // "DevDays runs from 12 to 14 May …", which its page quotes rather than the title.
    const first = surface.includes(" ") ? byKey.get(conceptKey(surface.split(/\s+/)[0]!, "proper") ?? "") : undefined;
    const said = first?.kind === "proper" ? first.mentions.map((m) => ({ ...m, surface })) : [];
    const mentions = said.length > 0 ? said : [{ pageSlug, surface, sentence: docTitle.trim().slice(0, MAX_SENTENCE_CHARS) }];
    byKey.set(key, { key, title: surface, kind: "proper", aliasKeys: [], surfaces: [surface], salience: 1, mentions });
  }
}

/** The key of an organization's short name ("Northwind Coffee" → northwind), when it is a name. */
function shortKeyOf(c: ExtractedConcept): string | null {
  const short = c.kind === "proper" ? orgShortName(c.title) : null;
  if (!short) return null;
  // One word left must read as a noun, not as an ordinary adjective or verb ("General Motors", "United Airlines").
  if (!short.includes(" ") && !["NOUN", "PROPN"].includes(lowerCaseReading(short).pos)) return null;
  const key = conceptKey(short, "proper");
  return key && key !== c.key ? key : null;
}

/** Lower-case words inside a person's name ("Pieter de Vries", "Ludwig van Beethoven"). */
const NAME_PARTICLES = new Set(["de", "van", "von", "der", "den", "da", "di", "del", "du", "la", "le", "bin", "al", "dos", "das"]);

/**
 * A name opening with a word English does not know ("Aiko Tanaka", "Pieter de Vries": the first-name lists are
 * English ones) that the source also names by that word alone ("Aiko works on seagrass"): the source shows it
 * is a first name.
 */
function namedByFirstWord(title: string, byKey: Map<string, ExtractedConcept>): boolean {
  const words = title.split(" ");
  const first = words[0]!;
  if (words.length < 2 || words.length > 4 || !/^\p{Lu}\p{Ll}+$/u.test(first) || englishFrequency().counts.has(first.toLowerCase())) return false;
  const rest = words.slice(1);
  if (!rest.every((w, i) => /^\p{Lu}\p{Ll}/u.test(w) || (i < rest.length - 1 && NAME_PARTICLES.has(w)))) return false;
  const alone = conceptKey(first, "proper");
  return alone !== null && byKey.get(alone)?.kind === "proper";
}

/**
 * "Curie" joins "Marie Curie", and "Northwind" joins "Northwind Coffee", when the source names both: the
 * longer name is the concept. So does a first name alone when the source names one person by it (meeting
 * notes' "Ben: write the migration guide" under "Attendees: Ana Ruiz, Ben Okoye"). Across sources a first name
 * is an alias (personFirstNameAlias), which two people of one first name make nobody's.
 */
function mergeShortNames(byKey: Map<string, ExtractedConcept>) {
  const longByAlias = new Map<string, ExtractedConcept>();
  /** Per first name, the one person of this source it names (null: two or more do). */
  const byFirstName = new Map<string, ExtractedConcept | null>();
  for (const c of byKey.values()) {
    const surname = c.kind === "proper" ? sourceSurnameAlias(c.title) : null;
    if (surname && surname !== c.key) longByAlias.set(surname, c); // two names sharing one: the last wins (rare)
    const short = shortKeyOf(c);
    if (short) longByAlias.set(short, c);
    const first = c.kind === "proper" && (isPersonName(c.title) || namedByFirstWord(c.title, byKey)) ? conceptKey(c.title.split(" ")[0]!, "proper") : null;
    if (first && first !== c.key) byFirstName.set(first, byFirstName.has(first) ? null : c);
  }
  for (const [first, person] of byFirstName) {
    if (!person || longByAlias.has(first)) continue;
    longByAlias.set(first, person);
    // Later sources may name the person so too (personFirstNameAlias, for the names the lists know).
    if (byKey.has(first) && !person.aliasKeys.includes(first)) person.aliasKeys.push(first);
  }
  for (const [alias, long] of longByAlias) {
    const short = byKey.get(alias);
    if (!short || short === long || short.kind !== "proper") continue;
    long.salience += short.salience;
    for (const s of short.surfaces) if (!long.surfaces.includes(s)) long.surfaces.push(s);
    for (const m of short.mentions) {
      if (long.mentions.length < MAX_MENTIONS_PER_SOURCE && !long.mentions.some((x) => x.sentence === m.sentence)) long.mentions.push(m);
    }
    byKey.delete(alias);
  }
}
