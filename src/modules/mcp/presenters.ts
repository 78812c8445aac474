// Wire shapes of the tools: the v1 HTTP shapes (answer with absolute-link citations, context pages with
// URLs, v1 source), so an integration reads the same fields over MCP and HTTP.
import type { AppContext } from "../../context";
import type { AnswerResult, ContextResult } from "../answer";
import { rewriteCitations } from "../answer/citations";
import type { Source } from "../sources/service";
import { markdownLabel } from "../wiki/render";
import { pageUrl } from "../wiki/urls";

export interface AnswerView {
  id: string;
  answer: string;
  citations: Array<{ slug: string; title: string; url: string }>;
  thin: boolean;
}

/** [[ref]] → [title](absolute url), as the v1 ask does. */
function linkedAnswer(ctx: AppContext, r: AnswerResult): string {
  const byRef = new Map(r.citations.map((c) => [c.ref, c]));
  return rewriteCitations(r.answerMd, (ref) => {
    const c = byRef.get(ref);
    return c ? `[${markdownLabel(c.title)}](${pageUrl(ctx, c.brain.id, c.slug)})` : "";
  });
}

export function answerView(ctx: AppContext, r: AnswerResult): AnswerView {
  return {
    id: r.id,
    answer: linkedAnswer(ctx, r),
    citations: r.citations.map((c) => ({ slug: c.slug, title: c.title, url: pageUrl(ctx, c.brain.id, c.slug) })),
    thin: r.thin,
  };
}

export { setAnswerView } from "../brain-sets/present";

export interface ContextView {
  context: string;
  pages: Array<{ slug: string; title: string; url: string; score: number }>;
  thin: boolean;
}

export function contextView(ctx: AppContext, r: ContextResult): ContextView {
  const pages = r.pages.map((p) => ({ slug: p.slug, title: p.title, url: pageUrl(ctx, p.brainId, p.slug), score: Math.round(p.score * 10_000) / 10_000 }));
  return { context: r.contextMd, pages, thin: r.thin };
}

export const v1Source = (s: Source) => ({ id: s.id, type: s.type, title: s.title, status: s.status, externalId: s.externalId });

/** Readable text of an answer: the answer, then its sources as a numbered list. */
export function answerText(view: { answer: string; citations: Array<{ title: string; url: string }>; thin: boolean }): string {
  if (view.thin) return `${view.answer}\n\n(thin: the brain has nothing solid on this; nothing is cited)`;
  const sources = view.citations.map((c, i) => `${i + 1}. ${c.title}: ${c.url}`).join("\n");
  return sources ? `${view.answer}\n\nSources:\n${sources}` : view.answer;
}

/** The line that tells an agent how to continue: the conversation's id and what was searched. */
export function turnText(fields: { conversationId: string | null; standaloneQuestion: string }): string {
  return `conversationId ${fields.conversationId ?? "(not saved)"}; searched: ${fields.standaloneQuestion}`;
}

export function contextText(view: ContextView): string {
  if (view.pages.length === 0) return "(thin: no page of this brain matches)";
  const list = view.pages.map((p) => `- ${p.title}: ${p.url}`).join("\n");
  return `${view.thin ? "(thin: these pages match weakly)\n\n" : ""}${view.context}\n\nPages:\n${list}`;
}
