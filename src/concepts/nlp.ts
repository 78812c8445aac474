// English phrase finding over the tagger's tokens (tagger.ts): sentences, the names they write (name-spans.ts)
// and lower-case noun phrases. wink-nlp was chosen over compromise because, measured on the same texts, it
// found the same names many times faster: what keeps ingestion at hundreds of sources a second.
import { englishFrequency } from "../lib/english-frequency";
import { endsSentence } from "../lib/sentence-ends";
import { nameSpans, withoutOpeningRole, withSharedSurname } from "./name-spans";
import { tagRuns } from "./tag-runs";
import { isCommonNoun, readText, tagger } from "./tagger";
import { firstWord, joinTokens, nounRun, spanText, wordEnd, wordStart, type Tokens } from "./tokens";
import { ACRONYM, ACRONYM_IN_TEXT, CURRENCY, CURRENCY_CODE, DEMONYM, INSTRUCTION_VERBS, isAcronym, SEASON, UNKNOWN_NAME } from "./word-kinds";

export { lowerCaseReading, RECYCLE_AFTER_CHARS, renewTagger, taggerGeneration } from "./tagger";

export interface Phrase {
  /** The words as written ("University of Paris"). */
  surface: string;
  /** `proper`: a name (people, places, organizations); `phrase`: a lower-case noun phrase. */
  kind: "proper" | "phrase";
  /** Index into `sentences`. */
  sentence: number;
}

/**
 * Between a table row's cells in the prose read for names (extract.ts): a semicolon and two spaces, which
 * prose (its spaces collapsed) never has, so a cell's first word is read as opening a sentence.
 */
export const CELL_SEPARATOR = ";  ";

/** Sentences of a text and the name/noun phrases in each. `maxChars` bounds the work on huge texts. */
export function findPhrases(text: string, maxChars = 60_000): { sentences: string[]; phrases: Phrase[]; continues: boolean[] } {
  // No words (a page that is all code or rules, whose prose is empty): the tagger still reports one empty
  // sentence, whose text was undefined and failed the source ("undefined is not an object").
  if (!/[\p{L}\p{N}]/u.test(text)) return { sentences: [], phrases: [], continues: [] };
  const n = tagger();
  const its = n.its;
  const doc = readText(text.length > maxChars ? text.slice(0, maxChars) : text);
  const sentenceOf: number[] = [];
  // The tokens' text, tags and sentences, read once; a sentence's text is its tokens' (the tagger's own
  // sentence text rebuilds the spacing again, a tenth of the tagging's time).
  const t: Tokens = { text: doc.tokens().out(), pos: doc.tokens().out(its.pos), spaces: doc.tokens().out(its.precedingSpaces), joined: "", starts: [], sentenceStart: [], sentenceEnd: [] };
  joinTokens(t);
  const sentences: string[] = [];
  /** Whether a sentence goes on in the paragraph of the one before it (no line break between them). */
  const continues: boolean[] = [];
  doc.sentences().each((s: any, index: number) => {
    const [a, b] = s.out(its.span) as [number, number];
    for (let i = a; i <= b; i++) {
      t.sentenceStart[i] = a;
      t.sentenceEnd[i] = b;
      sentenceOf[i] = index;
    }
    const sentence = spanText(t, a, b);
    sentences.push(sentence);
    // The tagger keeps a paragraph break before a sentence as its first token, or as that token's spacing.
    continues.push(index > 0 && !(t.spaces[a] ?? "").includes("\n") && !/^\s*\n/.test(sentence));
  });
  const tokensOf = (): Tokens => t;
  const phrases: Phrase[] = [];
  const grown: { span: [number, number]; phrase: Phrase }[] = [];
  const names: [number, number][] = [];
  for (const { type, start, end } of tagRuns(t.pos)) {
    if (type === "proper") {
      names.push(...nameSpans(tokensOf(), start, end));
    } else {
      const t = tokensOf();
      let [a, b] = [wordStart(t, start, t.sentenceStart[start]!), wordEnd(t, end, t.sentenceEnd[end]!)];
      // An instruction's verb read as the phrase's first noun ("Book flights and hotels"): the phrase is the rest.
      if (a === start && a === firstWord(t, a) && INSTRUCTION_VERBS.has(t.text[a]!.toLowerCase())) {
        if (b - a < 2) continue;
        a++;
      }
      // A name read as the phrase's first noun: an acronym ("UPS accounts also need …"), or a capitalized word
      // English never writes in lower case opening the sentence ("Shopify orders that are already fulfilled"):
      // the name is a name, the rest the phrase.
      if (isAcronym(t.text[a]!) || (a === firstWord(t, a) && UNKNOWN_NAME.test(t.text[a]!) && !englishFrequency().lowerCase.has(t.text[a]!.toLowerCase()))) {
        const nameEnd = wordEnd(t, a, b);
        names.push([a, nameEnd]);
        if (b - nameEnd < 2) continue;
        a = nameEnd + 1;
      }
      // A verb read as the phrase's last noun, as the price after it shows ("a check-up costs £55", "costs 40
      // EUR"): the phrase ends before it, and is none when one word is left. Not before a bare number ("school
      // district 5", "geodetic latitude 45°") nor an article ("gave the billing team a bonus").
      if (b < t.sentenceEnd[b]! && (CURRENCY.test(t.text[b + 1]!) || (t.pos[b + 1] === "NUM" && CURRENCY_CODE.test(t.text[b + 2] ?? "")))) {
        const last = wordStart(t, b, a);
        if (last <= a) continue;
        const before = last - 1;
        if (before === a || wordStart(t, before, a) === a) continue; // one word left
        b = before;
      }
      grown.push({ span: [a, b], phrase: { surface: spanText(t, a, b), kind: "phrase", sentence: sentenceOf[start]! } });
    }
  }
  // An acronym the tagger read as a common word ("UPS and FedEx refunds"): a name, unless English mostly writes
  // it as a word ("NOT", "FREE", "NOTE" in capitals are emphasis).
  if (ACRONYM_IN_TEXT.test(text)) {
    const t = tokensOf();
    const taken = (i: number) => names.some(([a, b]) => i >= a && i <= b) || grown.some(({ span: [a, b] }) => i >= a && i <= b);
    t.text.forEach((word, i) => {
      if (isAcronym(word) && !taken(i)) names.push([i, i]);
    });
  }
  // Two fragments of one name grow into the same span: each span once, the longest where they overlap.
  const kept: [number, number][] = [];
  for (const span of names.sort((x, y) => y[1] - y[0] - (x[1] - x[0]) || x[0] - y[0])) {
    if (!kept.some(([a, b]) => span[0] <= b && span[1] >= a)) kept.push(span);
  }
  const proper: Phrase[] = [];
  /** Name spans read as the phrase they open instead. */
  const asPhrase = new Set<[number, number]>();
  for (const span of kept.sort((x, y) => x[0] - y[0])) {
    const [a, b] = span;
    const t = tokensOf();
    if (a === b && SEASON.test(t.text[a]!) && /^\d{4}$/.test(t.text[a + 1] ?? "")) continue; // "in Fall 2016": a date
    if (a === b && ACRONYM.test(t.text[a]!) && !isAcronym(t.text[a]!)) continue; // "Do NOT share your FREE key": emphasis
    const sentence = sentenceOf[a]!;
    // A nationality before a noun says the noun's kind, and is no name: "Dutch oven", "French press", "Greek
    // yogurt" are the phrases, not "Dutch", "French" or "Greek".
    if (a === b && DEMONYM.test(t.text[a]!) && isCommonNoun(t.text[a + 1] ?? "")) {
      const end = nounRun(t, b);
      // A "noun" before an article is a verb ("The French won the battle").
      if (end > b && t.pos[end + 1] !== "DET") {
        grown.push({ span: [a, end], phrase: { surface: spanText(t, a, end), kind: "phrase", sentence } });
        asPhrase.add(span);
        continue;
      }
    }
    // A label's text opens as a sentence does ("Grace Mbeki: Practice manager."), and so does a table cell's
    // ("Checkout errors for EU customers" opening a cell: CELL_SEPARATOR). A capital after a semicolon in
    // prose is a name's ("…; Spring handles the beans").
    const opens = a === firstWord(t, a) || t.text[a - 1] === ":" || (t.text[a - 1] === ";" && t.spaces[a] === CELL_SEPARATOR.slice(1));
    // A word a sentence opens by defining is named by it ("Orbit is the order service behind the app."), even
    // a common noun's: a product, a team, a term of the trade.
    const defines = a === b && /^(?:is|was)$/i.test(t.text[b + 1] ?? "") && /^(?:a|an|the)$/i.test(t.text[b + 2] ?? "");
    const written = opens && !defines ? withoutOpeningRole(spanText(t, a, b)) : spanText(t, a, b);
    const surface = written && a === b ? withSharedSurname(t, a, kept) ?? written : written;
    if (surface) {
      proper.push({ surface, kind: "proper", sentence });
      continue;
    }
    // A common noun capitalized only because it opens the sentence starts the phrase of the nouns after it
    // ("Treatment plans above £1,000 …", "Practice manager."), which the tagger read as a name and dropped:
    // the phrase another source writes in lower case.
    const end = a === b ? nounRun(t, b) : b;
    if (end === b) continue;
    grown.push({ span: [a, end], phrase: { surface: spanText(t, a, end), kind: "phrase", sentence } });
    asPhrase.add(span);
  }
  // A phrase grown into a name's word ("Jean-Paul" of "u l" in "Jean-Paul Sartre") is part of the name; of
  // two phrases over the same words, the longer ("dental unit waterlines", not "unit waterlines").
  const overlaps = (x: [number, number], y: [number, number]) => x[0] <= y[1] && x[1] >= y[0];
  const longer = (x: [number, number], y: [number, number]) => y[1] - y[0] > x[1] - x[0];
  for (const { span, phrase } of grown) {
    if (kept.some((name) => !asPhrase.has(name) && overlaps(span, name))) continue;
    if (grown.some((other) => other.span !== span && overlaps(span, other.span) && longer(span, other.span))) continue;
    phrases.push(phrase);
  }
  phrases.push(...proper);
  return withAbbreviationsRejoined(sentences, phrases, continues);
}

/** A sentence the tagger ended at a short form ("… Okafor et al.", "e.g.", "cf."): lib/sentence-ends.ts. */
const endsInAbbreviation = (sentence: string) => !endsSentence(sentence.trim());

/**
 * The tagger ends a sentence at "et al." and "e.g." ("discussed Okafor et al." | "; Priya thinks …"): a
 * sentence so ended is joined to the next when that one does not open as a sentence does (lower case or
 * punctuation), and the phrases' sentence numbers follow.
 */
function withAbbreviationsRejoined(sentences: string[], phrases: Phrase[], continues: boolean[]): { sentences: string[]; phrases: Phrase[]; continues: boolean[] } {
  if (!sentences.some(endsInAbbreviation)) return { sentences, phrases, continues };
  const joined: string[] = [];
  const goesOn: boolean[] = [];
  const at: number[] = [];
  sentences.forEach((sentence, i) => {
    const previous = joined.at(-1);
    if (previous !== undefined && endsInAbbreviation(previous) && /^\s*[\p{Ll}\p{P}]/u.test(sentence)) {
      joined[joined.length - 1] = `${previous.trimEnd()}${/^\s*[;:,)]/.test(sentence) ? "" : " "}${sentence.trim()}`;
    } else {
      joined.push(sentence);
      goesOn.push(continues[i] ?? false);
    }
    at[i] = joined.length - 1;
  });
  return { sentences: joined, phrases: phrases.map((p) => ({ ...p, sentence: at[p.sentence] ?? p.sentence })), continues: goesOn };
}

