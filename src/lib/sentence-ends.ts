// Where a sentence does not end although a period and a capital or a digit follow: after an initial
// ("Thomas A. Edison") or a title or short form ("Dr. Brodie", "ext. 4410", "Fig. 2", "et al."). The splitters of the
// answers and of the pages' leads split at every such period first, then put these pieces back together. Concept
// extraction rejoins the tagger's sentences ended at one (concepts/nlp.ts).
import { foreignLanguage } from "./function-words";

const INITIAL = /(?:^|[\s(])\p{Lu}\.$/u;
const ABBREVIATION = /(?:^|[\s(])(?:mr|mrs|ms|dr|prof|st|jr|sr|vs|ext|vol|fig|figs|pp?|approx|ca|cf|al|gen|col|lt|capt|sgt|rev|mt|e\.g|i\.e)\.$/i;
/** "No." and "Nos." are short for number only before one ("No. 5"); "No. E-bikes are limited …" is two sentences. */
const NUMBER_SIGN = /(?:^|[\s(])nos?\.$/i;

/**
 * Whether a piece split off at a period ends a sentence (it does not after an initial or a short form), the
 * piece after it being `next` when known.
 */
export const endsSentence = (piece: string, next = "") => !INITIAL.test(piece) && !ABBREVIATION.test(piece) && !(NUMBER_SIGN.test(piece) && /^\d/.test(next));

/**
 * An ordinal written "31." before its month, as German and Scandinavian texts write dates ("am 31. März",
 * "den 1. maj"), or before any word in German or Dutch text ("in der 2. Klasse"): the period is the
 * ordinal's, not a sentence's end. English writes "2nd", so "The limit is 12. The pump stops." is two.
 */
const ORDINAL = /(?:^|\s)\d{1,2}\.$/;
const writesOrdinals = (text: string) => ["de", "nl"].includes(foreignLanguage(text.toLowerCase().match(/[\p{L}]+/gu) ?? []) ?? "");
const MONTH_START =
  /^(?:januar|jänner|januari|februar|februari|märz|maart|mars|april|mai|mei|maj|juni|juli|august|augustus|augusti|september|oktober|november|dezember|december|desember)\b/i;

/** Pieces split after an initial, a short form or a day's ordinal joined back to what follows (with one space). */
export function withAbbreviationsJoined(pieces: string[]): string[] {
  const out: string[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (last !== undefined && (!endsSentence(last, piece) || (ORDINAL.test(last) && (MONTH_START.test(piece) || writesOrdinals(last))))) out[out.length - 1] = `${last} ${piece}`;
    else out.push(piece);
  }
  return out;
}
