// Names as written: the tagger's proper-noun runs grown to their true edges, a sentence's opening role or
// function word taken off, and a surname shared by two given names.
import { englishFrequency } from "../lib/english-frequency";
import { isGivenName, isPersonName } from "./given-names";
import { GENERIC_HEADS } from "./keys";
import { isCommonNoun, lowerCaseReading } from "./tagger";
import { spanText, wordEnd, wordStart, type Tokens } from "./tokens";
import { CALENDAR_NAME, CAPITALIZED, INSTRUCTION_VERBS, isAcronym, MODEL_NUMBER, NAME_JOINERS, NOT_NAME_START, OPENERS, OPENING_FUNCTION_WORD, POSSESSIVE, UNIT_WORD } from "./word-kinds";

/**
 * A name span that opens its sentence, as it should be read: a capitalized common noun opening a sentence
 * before a name is a role, not part of it ("Surveyor Ada Quill" at a sentence start is Ada Quill); "" when
 * the span is no name at all.
 */
export function withoutOpeningRole(surface: string): string {
  const words = surface.split(/\s+/);
  // One capitalized word opening a sentence is not a name when, written lower-case, it reads as another
  // part of speech ("Local builders", "Several years"), as a plural common noun ("Visitors still come") or
  // as a noun English mostly writes in lower case (SUBTLEX: "Development will ensue"); unknown words read
  // as nouns and stay ("Holm was").
  if (words.length === 1) {
    const { pos, inflected } = lowerCaseReading(words[0]!);
    if (pos === "PROPN") return surface;
    // A word English never writes ("Shopify", "Spendly"), or an acronym ("UPS"): a name, whatever part of speech
    // its ending suggests.
    if (!englishFrequency().counts.has(words[0]!.toLowerCase()) || isAcronym(words[0]!)) return surface;
    return pos === "NOUN" && !inflected && !englishFrequency().lowerCase.has(words[0]!.toLowerCase()) ? surface : "";
  }
  // A conjunction, preposition or adverb opening the sentence, which the tagger took into the name because
  // it is capitalized there ("While Kara left", "As Mars rose"): the name is what follows.
  // What follows no longer opens the sentence, so the single-word rule above is not for it ("As Mars").
  const opener = words[0]!.toLowerCase();
  if (OPENERS.has(opener) || OPENING_FUNCTION_WORD.has(lowerCaseReading(opener).pos)) return words.slice(1).join(" ");
  // An instruction's verb opening a sentence or a list item ("Use 1Password for secrets", "Ask Priya Nair for
  // access") is capitalized there, not part of the name; not before "of" ("Call of Duty") nor a lone generic
  // head ("Open University").
  if (INSTRUCTION_VERBS.has(opener) && !NAME_JOINERS.has(words[1]!) && !(words.length === 2 && GENERIC_HEADS.has(words[1]!.toLowerCase())))
    return words.slice(1).join(" ");
  // A participle opening it is the sentence's (or a table cell's) word, not the name's: "Misconfigured Okta
  // connection", "Expired TLS certificate". Not "United" ("United Nations").
  if (/ed$/.test(opener) && opener !== "united" && lowerCaseReading(opener).pos === "VERB") return words.slice(1).join(" ");
  if (words.length < 3) return surface;
  // A common noun joined to the rest is part of the name ("Call of Duty", "President of China"): without it
  // the name would open with its joiner ("of Duty").
  if (NAME_JOINERS.has(words[1]!)) return surface;
  // A role comes before a person's name ("Surveyor Ada Quill"): a common noun opening a title or brand
  // ("Dragon Ball Super", "Magna Carta Holy Grail") is its first word.
  return isCommonNoun(words[0]!) && isGivenName(words[1]!) ? words.slice(1).join(" ") : surface;
}

/**
 * The tagger's name spans with their true edges. Its patterns see a name as a run of proper nouns, so a name
 * with a word it tags otherwise ("School of Building Arts", "Wystan Market Hall") or a possessive ("Mariners'
 * Institute") came out as fragments ("Arts", "Hall", "Institute": junk pages), and its `[PROPN] [ADP]
 * [PROPN]` joined two names over any preposition ("Institute in Corrowick"). A span is cut at a preposition
 * that does not join names, then grown over the capitalized words, joiners and possessive marks around it,
 * within its sentence (a sentence's opening article or preposition is not part of a name).
 */
export function nameSpans(t: Tokens, start: number, end: number): [number, number][] {
  const pieces: [number, number][] = [];
  let from = start;
  for (let i = start; i <= end; i++) {
    const joins = (t.pos[i] === "ADP" || t.pos[i] === "CCONJ") && !NAME_JOINERS.has(t.text[i]!);
    if (joins) {
      if (i > from) pieces.push([from, i - 1]);
      from = i + 1;
    }
  }
  if (from <= end) pieces.push([from, end]);
  const capital = (i: number) => CAPITALIZED.test(t.text[i] ?? "") && !(i === t.sentenceStart[i] && NOT_NAME_START.has(t.pos[i]!));
  // A joiner or possessive at `i` joining the capitalized word at `head` (after it) to the name.
  const link = (i: number, head: number) => NAME_JOINERS.has(t.text[i]!) || (POSSESSIVE.has(t.text[i]!) && GENERIC_HEADS.has(t.text[head]!.toLowerCase()));
  return pieces.map(([a, b]) => {
    const first = t.sentenceStart[a]!;
    const last = t.sentenceEnd[a]!;
    for (;;) {
      if (b + 1 <= last && capital(b + 1)) b++;
      else if (b + 2 <= last && capital(b + 2) && link(b + 1, b + 2)) b += 2;
      else if (wordEnd(t, b, last) > b) b = wordEnd(t, b, last);
      else break;
    }
    // A model's number is part of its name ("Aero 3", "Windows 11", "Apollo 11"); not a year ("Smith 2019"), a
    // date ("May 5") or an amount ("3 kg").
    if (b + 1 <= last && MODEL_NUMBER.test(t.text[b + 1]!) && !CALENDAR_NAME.test(t.text[b]!) && !UNIT_WORD.test(t.text[b + 2] ?? "")) b++;
    for (;;) {
      if (a - 1 >= first && capital(a - 1)) a--;
      else if (a - 2 >= first && capital(a - 2) && link(a - 1, a)) a -= 2;
      else if (wordStart(t, a, first) < a) a = wordStart(t, a, first);
      else break;
    }
    return [a, b];
  });
}

/**
 * Two people sharing a surname written once: "Samuel and Martha Ode" names Samuel Ode as well as Martha Ode
 * (the first name alone matched no other source's "Samuel Ode"). The first name at `a`, then "and" or "&",
 * then a person's name of two words or more among `names`: its surname is the first name's too.
 */
export function withSharedSurname(t: Tokens, a: number, names: [number, number][]): string | null {
  if (!/^(?:and|&)$/.test(t.text[a + 1] ?? "") || !isGivenName(t.text[a]!)) return null;
  const next = names.find(([from]) => from === a + 2);
  if (!next || next[1] - next[0] < 1) return null;
  const name = spanText(t, next[0], next[1]);
  return isPersonName(name) ? `${t.text[a]} ${spanText(t, next[0] + 1, next[1])}` : null;
}
