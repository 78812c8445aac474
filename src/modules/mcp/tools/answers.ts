// ask_brain and get_context: the answer service over one brain. On the account they follow the v1 rules:
// ask goes through the plans' meter exactly as the v1 ask (a Free bank, a Pro/Team quota, a thin answer
// counts, a failed one gives its question back); context is never metered. Someone else's paid brain goes
// through the paid rail instead.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { answerService, type MeterReading } from "../../answer";
import { planMeter } from "../../plans/meter";
import { paidTool } from "../paid";
import { answerText, answerView, contextText, contextView, turnText } from "../presenters";
import { guarded, ok } from "../results";
import { brainId, contextLimit, conversationId, query, question } from "../schemas";
import { answerTurn, openTurn } from "../../conversations/turn";
import { invalid } from "../../../lib/errors";
import type { ToolDeps } from "./deps";
import { askTarget } from "./target";

const PAID_NOTE =
  "A paid brain of another owner (x402) answers with a payment-required error carrying the `accepts` terms until the call carries a payment (params._meta['x402/payment'], or an X-Payment / PAYMENT-SIGNATURE header on the MCP HTTP request); then the payment is verified, the tool runs, and it settles last (a thin result is not charged).";

/** "97 questions left in the bank" / "9999 of 10000 questions left this month". */
function meterText(reading: MeterReading): string {
  const quota = reading.quota as { remaining?: number; limit?: number; period?: string } | null;
  if (quota?.remaining !== undefined) return `${quota.remaining} of ${quota.limit} questions left this ${quota.period}`;
  return reading.bank === null ? "unmetered" : `${reading.bank} questions left in the bank`;
}

export function registerAnswerTools(server: McpServer, deps: ToolDeps) {
  const { ctx, call } = deps;
  const service = answerService(ctx);
  const meter = planMeter(ctx);

  server.registerTool(
    "ask_brain",
    {
      title: "Ask a brain",
      description: `Ask one brain a question and get a grounded answer whose [title](url) links cite its wiki pages. Returns {id, answer, citations:[{slug,title,url}], thin, quota, bank, conversationId, standaloneQuestion}; thin: true means the brain has nothing solid on it (the answer says so, nothing is cited). Pass the answer's conversationId back to ask a follow-up ("where is she based?"): it is rewritten from the conversation into standaloneQuestion before searching. Counts as one question of your plan, like the HTTP v1 ask (a thin answer counts too). ${PAID_NOTE} A paid brain's ask has no conversation (conversationId is refused).`,
      inputSchema: { brainId, question, conversationId },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    ({ brainId, question, conversationId }, extra) =>
      guarded(ctx.log, "ask_brain", async () => {
        const target = await askTarget(deps, brainId);
        const brains = [{ id: target.brain.id, name: target.brain.name, kind: "primary" as const }];
        const accountId = call.principal?.account.id ?? null;
        if (target.kind === "paid" && conversationId !== undefined) throw invalid("conversationId", "A paid ask has no conversation: a payer has no account to own one. Ask each question standalone.");
        if (target.kind === "paid")
          return paidTool(ctx, call, {
            tool: "ask_brain",
            brain: target.brain,
            run: async () => answerView(ctx, await service.answer({ brains, question, signal: extra.signal, record: { accountId, surface: "mcp" } })),
            text: (view) => answerText(view),
            meta: extra._meta,
          });
        const ask = { accountId: target.principal.account.id, brainId: target.brain.id, surface: "v1" as const };
        const turn = await openTurn(ctx, { accountId: ask.accountId, scope: { brainId: target.brain.id, setId: null }, conversationId });
        const reading = await meter.admit(ask);
        let asked;
        try {
          const answer = (standaloneQuestion: string) => service.answer({ brains, question, standaloneQuestion, signal: extra.signal, record: { accountId, surface: "mcp" } });
          asked = await answerTurn(turn, question, answer, extra.signal);
        } catch (error) {
          await meter.refund?.(ask, reading);
          throw error;
        }
        const view = answerView(ctx, asked.result);
        const settled = (await meter.settle?.({ ...ask, askId: view.id, thin: view.thin })) ?? reading;
        return ok({ ...view, quota: settled.quota, bank: settled.bank, ...asked.fields }, `${answerText(view)}\n\n(${meterText(settled)}; ${turnText(asked.fields)})`);
      }),
  );

  server.registerTool(
    "get_context",
    {
      title: "Get a brain's context",
      description: `Retrieve the wiki pages of one brain that best match a query, as full markdown, without generating an answer (so your own model can reason over them). Returns {context, pages:[{slug,title,url,score}], thin}: at most \`limit\` pages (1–50, default 5), best first. Never counts against your question quota. ${PAID_NOTE}`,
      inputSchema: { brainId, query, limit: contextLimit },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ brainId, query, limit }, extra) =>
      guarded(ctx.log, "get_context", async () => {
        const target = await askTarget(deps, brainId);
        const brains = [{ id: target.brain.id, name: target.brain.name, kind: "primary" as const }];
        const run = async () => contextView(ctx, await service.context({ brains, query, limit }));
        if (target.kind === "paid") return paidTool(ctx, call, { tool: "get_context", brain: target.brain, run, text: (view) => contextText(view), meta: extra._meta });
        const view = await run();
        return ok({ ...view }, contextText(view));
      }),
  );
}
