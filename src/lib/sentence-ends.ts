// Where a sentence does not end although a period and a capital or a digit follow: after an initial
// ("Thomas A. Edison") or a title or short form ("Dr. Brodie", "ext. 4410", "Fig. 2"). The splitters of the
// answers and of the pages' leads split at every such period first, then put these pieces back together.
const INITIAL = /(?:^|[\s(])\p{Lu}\.$/u;
const ABBREVIATION = /(?:^|[\s(])(?:mr|mrs|ms|dr|prof|st|jr|sr|vs|ext|no|nos|vol|fig|figs|pp?|approx|ca|cf|al|gen|col|lt|capt|sgt|rev|mt|e\.g|i\.e)\.$/i;

/** Whether a piece split off at a period ends a sentence (it does not after an initial or a short form). */
export const endsSentence = (piece: string) => !INITIAL.test(piece) && !ABBREVIATION.test(piece);

/** Pieces split after an initial or a short form joined back to what follows (with one space). */
export function withAbbreviationsJoined(pieces: string[]): string[] {
  const out: string[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (last !== undefined && !endsSentence(last)) out[out.length - 1] = `${last} ${piece}`;
    else out.push(piece);
  }
  return out;
}
