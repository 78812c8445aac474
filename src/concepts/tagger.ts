// The wink-nlp tagger and its bundled lite model (POS tagger + sentence splitter, no download): one instance
// per thread, renewed after a bound of characters read, and the lower-case reading of single words.
import type winkNLPType from "wink-nlp";

let instance: ReturnType<typeof winkNLPType> | null = null;
/** Instances made so far, and the characters `instance` has read (see RECYCLE_AFTER_CHARS). */
let generation = 0;
let charsRead = 0;
/**
 * The tagger keeps every word it has not met before in its own table for good (~150 bytes each), so a
 * long import of text with many distinct names and numbers grew its thread's heap without bound (2M new
 * words: +300 MB). A fresh instance (35-75 ms) after this many characters (~4k abstracts) bounds it
 * at a few tens of MB, for well under 1% of the tagging time.
 */
export const RECYCLE_AFTER_CHARS = 5_000_000;

/** Which tagger instance reads next: for tests of the bound. */
export const taggerGeneration = () => generation;

/** Reads a text, on a fresh instance once the bound is passed (`its` is shared by every instance). */
export function readText(text: string) {
  if (charsRead > RECYCLE_AFTER_CHARS) [instance, charsRead] = [null, 0];
  charsRead += text.length;
  return tagger().readDoc(text);
}

/** Renews the tagger now, as the bound above does: for tests of renewal. */
export function renewTagger(): void {
  instance = null;
  charsRead = 0;
}

let stableModel: any = null;
/**
 * The bundled model, its custom-entity data read once: the model's loader re-encodes that data each time it
 * is read (its module keeps the JSON string it returned and stringifies it again), so each new instance made
 * from the model as published read a longer string, and a long import's renewals ran out of memory (26 of
 * them), though nothing here uses custom entities (tag-runs.ts).
 */
function model() {
  if (stableModel) return stableModel;
  const published = require("wink-eng-lite-web-model");
  const metaCER = published.metaCER();
  return (stableModel = Object.assign(Object.create(null), published, { metaCER: () => metaCER }));
}

export function tagger() {
  if (instance) return instance;
  // Required on first use, not imported: the model is ~3 MB of data that would otherwise be evaluated at
  // every start of the binary (cold start), also by commands and servers that never ingest. A plain
  // `require` of a literal name, so the bundler still embeds both packages.
  const winkNLP = require("wink-nlp") as typeof winkNLPType;
  // Names and noun phrases are runs of the tags (tag-runs.ts), not the library's custom entities.
  instance = winkNLP(model(), ["sbd", "pos"]);
  generation++;
  return instance;
}

const lexiconCache = new Map<string, { pos: string; inflected: boolean }>();
/** Lemmas of a token list (its.lemma's declared type does not fit `out`'s, though the call is documented). */
const lemmas = (tokens: any): string[] => tokens.out(tagger().its.lemma);

/**
 * How the tagger reads the word written lower-case in a neutral frame ("surveyor" NOUN, "local" ADJ), and
 * whether its lemma differs (an inflected form: "visitors" → visitor).
 */
export function lowerCaseReading(word: string): { pos: string; inflected: boolean } {
  const lower = word.toLowerCase();
  let reading = lexiconCache.get(lower);
  if (reading === undefined) {
    const n = tagger();
    const tokens = readText(`the ${lower} one`).tokens();
    reading = { pos: String(tokens.out(n.its.pos)[1]), inflected: String(lemmas(tokens)[1]) !== lower };
    if (lexiconCache.size > 10_000) lexiconCache.clear();
    lexiconCache.set(lower, reading);
  }
  return reading;
}

const lowerCasePos = (word: string) => lowerCaseReading(word).pos;

export const isCommonNoun = (word: string) => lowerCasePos(word) === "NOUN";
