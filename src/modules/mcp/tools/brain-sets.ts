// ask_brain_set: a primary brain blended with its advisors, as POST /api/v1/brain-sets/{id}/ask (Pro and
// Team only, metered like the v1 ask, the same shape: [[ref]] citations tagged by brain).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AppError } from "../../../lib/errors";
import { answerService } from "../../answer";
import { resolveBrainSet } from "../../brain-sets/service";
import { planLimits } from "../../plans/limits";
import { spendQuestion } from "../../plans/metering";
import { answerText, setAnswerView, turnText } from "../presenters";
import { guarded, ok } from "../results";
import { conversationId, question, setId } from "../schemas";
import { answerTurn, openTurn } from "../../conversations/turn";
import { principalOf, type ToolDeps } from "./deps";

export function registerBrainSetTools(server: McpServer, { ctx, call }: ToolDeps) {
  server.registerTool(
    "ask_brain_set",
    {
      title: "Ask a brain set",
      description:
        "Ask one of your brain sets (a primary brain blended with 1 to 4 advisor brains) and get one grounded answer whose [[ref]] citations say which brain each page comes from. Returns {id, answer, citations:[{brain:{id,name,kind},slug,ref,title,url}], thin, advisorContributed, quota, bank, conversationId, standaloneQuestion}; pass conversationId back to ask a follow-up. Pro and Team plans only; counts as one question.",
      inputSchema: { setId, question, conversationId },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    ({ setId, question, conversationId }, extra) =>
      guarded(ctx.log, "ask_brain_set", async () => {
        const { account } = principalOf(call);
        if (!planLimits(ctx.config, account.planId as never).brainSets)
          throw new AppError("plan_required", "Asking a brain set needs the Pro or Team plan", { plan: account.planId });
        const set = await resolveBrainSet(ctx.db, account.id, setId);
        const brains = [
          { id: set.primary.id, name: set.primary.name, kind: "primary" as const },
          ...set.advisors.map((b) => ({ id: b.id, name: b.name, kind: "advisor" as const })),
        ];
        const turn = await openTurn(ctx, { accountId: account.id, scope: { brainId: set.primary.id, setId: set.id }, conversationId });
        const spent = await spendQuestion(ctx.db, ctx.config, account);
        let asked;
        try {
          const answer = (standaloneQuestion: string) => answerService(ctx).answer({ brains, question, standaloneQuestion, signal: extra.signal, record: { accountId: account.id, surface: "mcp" } });
          asked = await answerTurn(turn, question, answer, extra.signal);
        } catch (error) {
          await spent.refund();
          throw error;
        }
        const view = setAnswerView(ctx, asked.result);
        const text = answerText({ ...view, citations: view.citations.map((c) => ({ title: `[[${c.ref}]] ${c.title} (${c.brain.name})`, url: c.url })) });
        return ok({ ...view, quota: spent.quota, bank: spent.bank, ...asked.fields }, `${text}\n\n(${turnText(asked.fields)})`);
      }),
  );
}
