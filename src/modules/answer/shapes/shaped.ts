// What a shape's strategy hands back: facts (each a sentence of a page, quoted and cited) after a lead that
// says the answer ("Yes", the chosen one), or thin with why; null when the shape does not fit these pages
// (the plain extractive answer is given instead).
import type { RetrievedPage } from "../../../retrieval";

export interface Fact {
  text: string;
  page: RetrievedPage;
}

export type Shaped = { kind: "answer"; lead: string | null; facts: Fact[] } | { kind: "thin"; reason: string };

/** A sentence ends as written or with a full stop. */
export const withStop = (text: string) => (/[.!?…。！？:]["”'’)\]]*$/.test(text) ? text : `${text}.`);

/** The lead, then the facts in order (each said once), a citation after each run of one page's facts. */
export function shapedText(shaped: Extract<Shaped, { kind: "answer" }>, refOf: (page: RetrievedPage) => string): string {
  const facts = shaped.facts.filter((f, i, all) => all.findIndex((g) => g.text === f.text && g.page.pageId === f.page.pageId) === i);
  const parts: string[] = shaped.lead ? [shaped.lead] : [];
  facts.forEach((f, i) => {
    parts.push(withStop(f.text));
    if (facts[i + 1]?.page.pageId !== f.page.pageId) parts.push(`[[${refOf(f.page)}]]`);
  });
  return parts.join(" ");
}
