// A paid brain asked over MCP: the x402 rail's one paidCall flow (check → reserve nonce → verify → run →
// settle last; thin settles nothing), with its outcome told as a tool result. Until the MCP HTTP request
// carries X-Payment the result is "payment required" with the same `accepts` terms as the HTTP 402.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AppContext } from "../../context";
import { PAYMENT_RESPONSE_HEADER, type PaymentRequiredBody } from "../../pay";
import { x402Service, type PaidBrain, type PaymentReceipt } from "../x402";
import type { CallContext } from "./call-context";
import { failure, ok } from "./results";

export interface PaidJob<T extends { thin: boolean }> {
  tool: "ask_brain" | "get_context";
  brain: PaidBrain;
  run: () => Promise<T>;
  text: (result: T, payment: PaymentReceipt) => string;
}

export async function paidTool<T extends { thin: boolean }>(ctx: AppContext, call: CallContext, job: PaidJob<T>): Promise<CallToolResult> {
  const x402 = x402Service(ctx);
  const resource = `${call.endpointUrl}?tool=${job.tool}&brainId=${encodeURIComponent(job.brain.id)}`;
  const outcome = await x402.paidCall({
    requirements: x402.brainRequirements(job.brain, resource),
    paymentHeader: call.paymentHeader,
    run: async () => {
      const result = await job.run();
      return { result, thin: result.thin };
    },
  });
  const receipt = outcome.headers[PAYMENT_RESPONSE_HEADER];
  if (receipt) call.responseHeaders[PAYMENT_RESPONSE_HEADER] = receipt;
  if (outcome.ok) return ok({ ...outcome.result, payment: outcome.payment }, job.text(outcome.result, outcome.payment));
  if (outcome.status === 402) return paymentRequired(job.brain, job.tool, outcome.body);
  return failure(outcome.body.error.code, outcome.body.error.message, outcome.status === 503 ? { retryAfterSeconds: 30 } : {});
}

/** isError, with the 402 body as structured content and the terms spelled out for a reader. */
function paymentRequired(brain: PaidBrain, tool: string, body: PaymentRequiredBody & { message: string; payer?: string }): CallToolResult {
  const terms = body.accepts[0]!;
  const refused = body.error === "payment_required" ? "" : `The payment sent was refused (${body.error}): ${body.message}\n\n`;
  const text = `${refused}Payment required (x402): ${tool} on the paid brain "${brain.name}" costs ${terms.maxAmountRequired} atomic units of the token ${terms.asset} on network ${terms.network}, paid to ${terms.payTo}.
Sign an EIP-3009 transferWithAuthorization for exactly maxAmountRequired (scheme "${terms.scheme}", EIP-712 domain "${terms.extra.name}" version "${terms.extra.version}"), then call ${tool} again with the base64 payment in the X-Payment header of the MCP HTTP request. The server verifies, answers, and settles last; a thin result is not charged.
accepts: ${JSON.stringify(body.accepts)}`;
  return { content: [{ type: "text", text }], structuredContent: { ...body }, isError: true };
}
