// A paid brain asked over MCP: the x402 rail's one paidCall flow (check → reserve nonce → verify → run →
// settle last; thin settles nothing), with its outcome told as a tool result. The payment comes either in
// the x402 MCP convention (params._meta["x402/payment"], a PaymentPayload object of v1 or v2; the
// settlement answered in result._meta["x402/payment-response"]) or, as before, in an X-Payment (v1) or
// PAYMENT-SIGNATURE (v2) header of the MCP HTTP request, answered in X-PAYMENT-RESPONSE / PAYMENT-RESPONSE.
// Until then the result is "payment required": isError, the 402 body in structuredContent.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AppContext } from "../../context";
import type { PaymentRequiredV2 } from "../../pay";
import { x402Service, type PaidBrain, type PaidCallOutcome, type PaymentReceipt } from "../x402";
import type { CallContext } from "./call-context";
import { failure, ok } from "./results";

export const PAYMENT_META = "x402/payment";
export const PAYMENT_RESPONSE_META = "x402/payment-response";

export interface PaidJob<T extends { thin: boolean }> {
  tool: "ask_brain" | "get_context";
  brain: PaidBrain;
  run: () => Promise<T>;
  text: (result: T, payment: PaymentReceipt) => string;
  /** The request's params._meta (the x402 MCP convention carries the payment there). */
  meta?: Record<string, unknown>;
}

export async function paidTool<T extends { thin: boolean }>(ctx: AppContext, call: CallContext, job: PaidJob<T>): Promise<CallToolResult> {
  const x402 = x402Service(ctx);
  const resource = `${call.endpointUrl}?tool=${job.tool}&brainId=${encodeURIComponent(job.brain.id)}`;
  const viaMeta = job.meta?.[PAYMENT_META];
  const outcome = await x402.paidCall({
    requirements: x402.brainRequirements(job.brain, resource),
    // A payment in _meta is this call's own; the HTTP headers are the request's (the older convention).
    payment: viaMeta !== undefined ? { object: viaMeta } : { v1: call.paymentHeader, v2: call.paymentSignature },
    subject: { brainId: job.brain.id },
    run: async () => {
      const result = await job.run();
      return { result, thin: result.thin };
    },
  });
  // Settlement headers (X-PAYMENT-RESPONSE or PAYMENT-RESPONSE) reach the HTTP reply for header payers.
  if (viaMeta === undefined) {
    for (const [name, value] of Object.entries(outcome.headers)) if (/payment-response$/i.test(name)) call.responseHeaders[name] = value;
  }
  const meta = settlementMeta(outcome);
  if (outcome.ok) return { ...ok({ ...outcome.result, payment: outcome.payment }, job.text(outcome.result, outcome.payment)), ...meta };
  if (outcome.status === 402) return { ...paymentRequired(job.brain, job.tool, outcome.body, outcome.v2), ...meta };
  return failure(outcome.body.error.code, outcome.body.error.message, outcome.status === 503 ? { retryAfterSeconds: 30 } : {});
}

function settlementMeta<T>(outcome: PaidCallOutcome<T>): { _meta?: Record<string, unknown> } {
  const settlement = outcome.ok || outcome.status === 402 ? outcome.settlement : null;
  return settlement ? { _meta: { [PAYMENT_RESPONSE_META]: settlement } } : {};
}

/** isError, with the 402 body as structured content and the terms spelled out for a reader. */
function paymentRequired(brain: PaidBrain, tool: string, body: Extract<PaidCallOutcome<never>, { status: 402 }>["body"], v2: PaymentRequiredV2): CallToolResult {
  const terms = body.accepts[0]!;
  const refused = body.error === "payment_required" ? "" : `The payment sent was refused (${body.error}): ${body.message}\n\n`;
  const text = `${refused}Payment required (x402): ${tool} on the paid brain "${brain.name}" costs ${terms.maxAmountRequired} atomic units of the token ${terms.asset} on network ${terms.network} (x402 v2: ${v2.accepts[0]!.network}), paid to ${terms.payTo}.
Sign an EIP-3009 transferWithAuthorization for exactly maxAmountRequired (scheme "${terms.scheme}", EIP-712 domain "${terms.extra.name}" version "${terms.extra.version}"), then call ${tool} again with the PaymentPayload object in params._meta["${PAYMENT_META}"] (x402 MCP convention, v1 or v2), or the base64 payment in the X-Payment header (v1) or PAYMENT-SIGNATURE header (v2) of the MCP HTTP request. The server verifies, answers, and settles last; a thin result is not charged.
accepts: ${JSON.stringify(body.accepts)}
x402 v2 terms: ${JSON.stringify(v2)}`;
  return { content: [{ type: "text", text }], structuredContent: { ...body }, isError: true };
}
