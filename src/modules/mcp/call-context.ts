// What one MCP HTTP request brings to its tools: who calls (null on the keyless paid endpoint), the
// X-Payment header if any, and headers the tools add to the HTTP response (X-PAYMENT-RESPONSE).
import type { Principal } from "../auth/keys";

export type McpMode = "account" | "paid-only";

export interface CallContext {
  mode: McpMode;
  principal: Principal | null;
  paymentHeader: string | null;
  /** PAYMENT-SIGNATURE (x402 v2) on the MCP HTTP request, if any. */
  paymentSignature?: string | null;
  /** The URL this request came to (/mcp or /mcp/x402): the `resource` of paid terms. */
  endpointUrl: string;
  responseHeaders: Record<string, string>;
}
