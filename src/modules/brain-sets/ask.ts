// Asking a brain set: one answer over the primary and its advisors (the primary preferred), citations
// tagged by brain. A Pro/Team feature, metered like v1 ask.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { AppError } from "../../lib/errors";
import { answerService, CONVERSATION_NOTE, type AskBrain } from "../answer";
import { askBody } from "../answer/model";
import { eventStream, wantsEventStream } from "../answer/sse";
import { authGuard } from "../auth/guard";
import { answerTurn, openTurn } from "../conversations/turn";
import { planLimits } from "../plans/limits";
import { spendQuestion } from "../plans/metering";
import { setParams } from "./model";
import { setAnswerView } from "./present";
import { resolveBrainSet } from "./service";

export const brainSetAskRoutes = (ctx: AppContext) => {
  const service = answerService(ctx);

  return new Elysia({ detail: { tags: ["Brain sets"] } })
    .use(authGuard(ctx, "ask"))
    // Ask a set: [[ref]] citations in the answer (ref = slug, or slug@brainId when two brains share a slug).
    .post(
      "/api/v1/brain-sets/:setId/ask",
      async ({ principal, params, body, request }) => {
        const account = principal.account;
        if (!planLimits(ctx.config, account.planId as never).brainSets)
          throw new AppError("plan_required", "Asking a brain set needs the Pro or Team plan", { plan: account.planId });
        const set = await resolveBrainSet(ctx.db, account.id, params.setId);
        const brains: AskBrain[] = [
          { id: set.primary.id, name: set.primary.name, kind: "primary" },
          ...set.advisors.map((b): AskBrain => ({ id: b.id, name: b.name, kind: "advisor" })),
        ];
        const turn = await openTurn(ctx, { accountId: account.id, scope: { brainId: set.primary.id, setId: set.id }, conversationId: body.conversationId });
        const spent = await spendQuestion(ctx.db, ctx.config, account);
        const run = async (stream?: { onToken: (t: string) => void; onReset: () => void; signal: AbortSignal }) => {
          try {
            const record = { accountId: account.id, surface: "brain-set" as const, setId: set.id };
            const { result, fields } = await answerTurn(turn, body.question, (standaloneQuestion) => service.answer({ brains, question: body.question, standaloneQuestion, ...stream, record }), stream?.signal);
            return { ...setAnswerView(ctx, result), quota: spent.quota, bank: spent.bank, ...fields };
          } catch (e) {
            await spent.refund();
            throw e;
          }
        };
        if (!wantsEventStream(request)) return run();
        return eventStream(ctx.log, (send, signal) => run({ onToken: (t) => send("token", t), onReset: () => send("reset", ""), signal }));
      },
      { params: setParams, body: askBody, detail: { summary: "Ask a brain set", description: CONVERSATION_NOTE } },
    );
};
