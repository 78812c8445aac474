// The extractive answer's text: the chosen sentences by page and in reading order, a citation per run.
import type { RetrievedPage } from "../../retrieval";
import type { ScoredSentence } from "./evidence";
import { stemSet } from "./sentences";

/** Sentences sharing this share of their words (Jaccard) say the same thing: the second is dropped. */
const NEAR_DUPLICATE = 0.8;

/** Pages in the order their first chosen sentence was chosen; sentences in reading order; a citation per run. */
export function compose(chosen: ScoredSentence[], refOf: (page: RetrievedPage) => string): string {
  const pageOrder = [...new Set(chosen.map((s) => s.pageRank))];
  const ordered = [...chosen].sort((a, b) => pageOrder.indexOf(a.pageRank) - pageOrder.indexOf(b.pageRank) || a.index - b.index);
  const parts: string[] = [];
  ordered.forEach((s, i) => {
    // A sentence whose heading holds what is asked (a changelog item's release date) is read with it, once.
    const heading = s.heading !== undefined && ordered[i - 1]?.heading !== s.heading ? `${s.heading}: ` : "";
    parts.push(heading + withStop(s.whole));
    const next = ordered[i + 1];
    if (!next || next.pageRank !== s.pageRank) parts.push(`[[${refOf(s.page)}]]`);
  });
  return parts.join(" ");
}

export function sameThing(a: ScoredSentence, b: ScoredSentence): boolean {
  if (a.whole === b.whole) return true;
  const x = stemSet(a.whole);
  const y = stemSet(b.whole);
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared || 1) >= NEAR_DUPLICATE;
}

/**
 * A sentence ends as written, or with a full stop; a label ending in a colon introduces what follows it. A
 * closing bracket or quote ends it only after its own stop ("(see below.)"): a table row ending in "(the URL
 * is logged)" ran into the next row.
 */
export const withStop = (text: string) => (/[.!?…。！？:]["”'’)\]]*$/.test(text) ? text : `${text}.`);

