// The paid ask's job: the shared answer service over one paid brain, shaped like the v1 answer.
import type { AppContext } from "../../context";
import { answerService } from "../answer";
import { rewriteCitations } from "../answer/citations";
import { markdownLabel } from "../wiki/render";
import type { PaidBrain } from "./paid-brains";
import { pageUrl } from "../wiki/urls";

export interface PaidAnswer {
  answer: string;
  citations: Array<{ slug: string; title: string; url: string }>;
  thin: boolean;
}


export async function answerPaidQuestion(ctx: AppContext, brain: PaidBrain, question: string): Promise<{ result: PaidAnswer; thin: boolean }> {
  const r = await answerService(ctx).answer({
    brains: [{ id: brain.id, name: brain.name, kind: "primary" }],
    question,
    record: { accountId: null, surface: "x402" },
  });
  const byRef = new Map(r.citations.map((c) => [c.ref, c]));
  const answer = rewriteCitations(r.answerMd, (ref) => {
    const c = byRef.get(ref);
    return c ? `[${markdownLabel(c.title)}](${pageUrl(ctx, c.brain.id, c.slug)})` : "";
  });
  const citations = r.citations.map((c) => ({ slug: c.slug, title: c.title, url: pageUrl(ctx, c.brain.id, c.slug) }));
  return { result: { answer, citations, thin: r.thin }, thin: r.thin };
}
