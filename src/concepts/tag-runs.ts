// The runs of part-of-speech tags that make names and noun phrases (nlp.ts), found by a scan of the tags.
// They were wink-nlp's custom entities, whose automaton (and its token transforms) cost a fifth of the tagging
// time; the scan finds the same spans by the same rule: at each token the longest pattern that matches there,
// then on after it (tests/wiki/tag-runs.test.ts compares the two; a line break's token ends a run, as there).
//   proper: PROPN (ADP|CCONJ) PROPN PROPN · PROPN ADP PROPN · PROPN PROPN PROPN PROPN · … · PROPN
//   phrase: (ADJ|NOUN) NOUN NOUN · (ADJ|NOUN) NOUN

export interface TagRun {
  type: "proper" | "phrase";
  /** First and last token index (inclusive). */
  start: number;
  end: number;
}

/** The longest pattern matching the tags `pos` at token `k`, or null. */
function longestAt(pos: readonly string[], k: number): { type: TagRun["type"]; length: number } | null {
  const at = (i: number): string | undefined => pos[i];
  const first = at(k);
  if (first === "PROPN") {
    let length = 1;
    while (length < 4 && at(k + length) === "PROPN") length++;
    const joiner = at(k + 1);
    if (joiner === "ADP" || joiner === "CCONJ") {
      if (at(k + 2) === "PROPN") {
        if (at(k + 3) === "PROPN") length = Math.max(length, 4);
        else if (joiner === "ADP") length = Math.max(length, 3);
      }
    }
    return { type: "proper", length };
  }
  if ((first === "ADJ" || first === "NOUN") && at(k + 1) === "NOUN") return { type: "phrase", length: at(k + 2) === "NOUN" ? 3 : 2 };
  return null;
}

/** The runs in `pos` (one tag per token). */
export function tagRuns(pos: readonly string[]): TagRun[] {
  const runs: TagRun[] = [];
  for (let k = 0; k < pos.length; ) {
    const match = longestAt(pos, k);
    if (!match) {
      k++;
      continue;
    }
    runs.push({ type: match.type, start: k, end: k + match.length - 1 });
    k += match.length;
  }
  return runs;
}
