// The brain-set answer's wire shape, shared by HTTP and MCP: [[ref]] citations in the answer, tagged by brain.
import type { AppContext } from "../../context";
import type { AnswerResult } from "../answer";
import { pageUrl } from "../wiki/urls";

export function setAnswerView(ctx: AppContext, r: AnswerResult) {
  return {
    id: r.id,
    answer: r.answerMd,
    citations: r.citations.map((c) => ({
      brain: { id: c.brain.id, name: c.brain.name, kind: c.brain.kind },
      slug: c.slug,
      ref: c.ref,
      title: c.title,
      url: pageUrl(ctx, c.brain.id, c.slug),
    })),
    thin: r.thin,
    advisorContributed: r.citations.some((c) => c.brain.kind === "advisor"),
  };
}
