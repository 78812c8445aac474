// Asking and context over HTTP: the v1 surface (answer with absolute-link citations, id, quota, bank; context
// with page URLs) and the unversioned one (answerMd + answerHtml + documentId citations; contextText). One
// service call each; the presenters below only reshape. Asks stream as SSE on `Accept: text/event-stream`.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { answerTurn, openTurn, type TurnFields } from "../conversations/turn";
import { readableBrain } from "../brains/service";
import { markdownLabel, renderMarkdown } from "../wiki/render";
import { pageUrl } from "../wiki/urls";
import { rewriteCitations } from "./citations";
import { UNMETERED, type AskMeter, type MeterReading } from "./meter";
import { askBody, brainParams, contextBody } from "./model";
import { answerService, type AnswerResult, type AskBrain, type Citation, type ContextResult } from "./service";
import { eventStream, wantsEventStream } from "./sse";

export { answerService, type AnswerResult, type AnswerService, type AskBrain, type Citation, type ContextResult } from "./service";
export type { AskMeter, MeterReading } from "./meter";

type Surface = "v1" | "unversioned";

export const CONVERSATION_NOTE =
  "Every answer also carries `conversationId` (send it back as `conversationId` to ask a follow-up) and `standaloneQuestion` (what was searched: the follow-up rewritten from the conversation's last turns, or the question itself). See docs/conversations.md.";

/** Scores on the wire: 4 decimals are plenty to order and compare pages. */
export const roundScore = (score: number) => Math.round(score * 10_000) / 10_000;

export const answerRoutes = (ctx: AppContext, opts: { meter?: AskMeter } = {}) => {
  const service = answerService(ctx);
  const citationUrl = (c: Citation) => pageUrl(ctx, c.brain.id, c.slug);
  /** [[ref]] → [title](url) for the cited pages; the service already removed every other ref. */
  const linked = (r: AnswerResult) => {
    const byRef = new Map(r.citations.map((c) => [c.ref, c]));
    return rewriteCitations(r.answerMd, (ref) => {
      const c = byRef.get(ref);
      return c ? `[${markdownLabel(c.title)}](${citationUrl(c)})` : "";
    });
  };

  const v1Answer = (r: AnswerResult, reading: MeterReading) => ({
    id: r.id,
    answer: linked(r),
    citations: r.citations.map((c) => ({ slug: c.slug, title: c.title, url: citationUrl(c) })),
    thin: r.thin,
    quota: reading.quota,
    bank: reading.bank,
  });
  const unversionedAnswer = (r: AnswerResult) => ({
    answerMd: r.answerMd,
    answerHtml: renderMarkdown(linked(r)),
    citations: r.citations.map((c) => ({ slug: c.slug, title: c.title, documentId: c.sourceId })),
    retrievedSlugs: r.retrievedSlugs,
    thin: r.thin,
  });
  const v1Context = (r: ContextResult) => ({
    context: r.contextMd,
    pages: r.pages.map((p) => ({ slug: p.slug, title: p.title, url: pageUrl(ctx, p.brainId, p.slug), score: roundScore(p.score) })),
    thin: r.thin,
  });
  const unversionedContext = (r: ContextResult) => ({
    contextText: r.contextMd,
    pages: r.pages.map((p) => ({ slug: p.slug, title: p.title, score: roundScore(p.score) })),
    thin: r.thin,
  });

  async function primaryBrain(accountId: string, brainId: string): Promise<AskBrain[]> {
    const brain = await readableBrain(ctx.db, accountId, brainId);
    return [{ id: brain.id, name: brain.name, kind: "primary" }];
  }

  /**
   * Checks access, the conversation and the meter up front (real HTTP statuses), then rewrites a follow-up,
   * answers plainly or as an event stream, and keeps the turn.
   */
  async function ask(surface: Surface, accountId: string, brainId: string, body: { question: string; conversationId?: string }, request: Request) {
    const brains = await primaryBrain(accountId, brainId);
    const turn = await openTurn(ctx, { accountId, scope: { brainId: brains[0]!.id, setId: null }, conversationId: body.conversationId });
    const reading = opts.meter ? await opts.meter.admit({ accountId, brainId, surface }) : UNMETERED;
    const run = async (stream?: { onToken: (t: string) => void; onReset: () => void; signal: AbortSignal }) => {
      let asked: { result: AnswerResult; fields: TurnFields };
      try {
        asked = await answerTurn(turn, body.question, (standaloneQuestion) => service.answer({ brains, question: body.question, standaloneQuestion, ...stream, record: { accountId, surface } }), stream?.signal);
      } catch (e) {
        await opts.meter?.refund?.({ accountId, brainId, surface }, reading);
        throw e;
      }
      const { result, fields } = asked;
      const settled = await opts.meter?.settle?.({ accountId, brainId, surface, askId: result.id, thin: result.thin });
      return { ...(surface === "v1" ? v1Answer(result, settled ?? reading) : unversionedAnswer(result)), ...fields };
    };
    if (!wantsEventStream(request)) return run();
    return eventStream(ctx.log, (send, signal) => run({ onToken: (t) => send("token", t), onReset: () => send("reset", ""), signal }));
  }

  return (
    new Elysia({ detail: { tags: ["Answers"] } })
      .use(authGuard(ctx, "ask"))
      // v1 ask: grounded answer, [[slug]] rewritten to absolute links; SSE with Accept: text/event-stream.
      .post("/api/v1/brains/:brainId/ask", ({ principal, params, body, request }) => ask("v1", principal.account.id, params.brainId, body, request), {
        params: brainParams,
        body: askBody,
        detail: { summary: "Ask a brain (v1)", description: CONVERSATION_NOTE },
      })
      // Unversioned ask: answerMd keeps [[slug]], answerHtml is rendered and sanitized.
      .post("/api/brains/:brainId/ask", ({ principal, params, body, request }) => ask("unversioned", principal.account.id, params.brainId, body, request), {
        params: brainParams,
        body: askBody,
        detail: { summary: "Ask a brain (unversioned)", description: CONVERSATION_NOTE },
      })
      // v1 context: {context, pages:[{slug,title,url}], thin}; no answer generated, never metered.
      .post(
        "/api/v1/brains/:brainId/context",
        async ({ principal, params, body }) =>
          v1Context(await service.context({ brains: await primaryBrain(principal.account.id, params.brainId), query: body.query, limit: body.limit })),
        {
          params: brainParams,
          body: contextBody,
          detail: {
            summary: "Retrieve context pages (v1)",
            description:
              "The v1 shape of the context capability (not shown in the seed): `{context, pages:[{slug,title,url,score}], thin}`. At most `limit` pages (1–50, default 5), best first; `score` is the page's retrieval score in [0, 1] (1 = the best match). `context` is the full markdown of the retrieved pages (as the unversioned `contextText`), `url` the page's absolute address (as in v1 citations). Never metered.",
          },
        },
      )
      // Unversioned context: {contextText, pages:[{slug,title}], thin}.
      .post(
        "/api/brains/:brainId/context",
        async ({ principal, params, body }) =>
          unversionedContext(await service.context({ brains: await primaryBrain(principal.account.id, params.brainId), query: body.query, limit: body.limit })),
        { params: brainParams, body: contextBody, detail: { summary: "Retrieve context pages (unversioned)" } },
      )
  );
};
