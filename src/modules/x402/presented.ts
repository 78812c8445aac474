// What the payer presented, in whichever x402 dialect: X-PAYMENT (v1), PAYMENT-SIGNATURE (v2), or a
// payload object in MCP `_meta["x402/payment"]` (either version). Normalized to the v1 payload the flow
// checks and the facilitator settles (a v2 payment carries the same EIP-3009 authorization and signature),
// plus the version to answer in: X-PAYMENT-RESPONSE for v1, PAYMENT-RESPONSE for v2.
import {
  decodePaymentHeader,
  decodePaymentSignature,
  encodePaymentRequiredV2,
  encodePaymentResponse,
  encodePaymentResponseV2,
  NETWORK,
  NETWORK_V2,
  PAYMENT_REQUIRED_HEADER_V2,
  PAYMENT_RESPONSE_HEADER,
  PAYMENT_RESPONSE_HEADER_V2,
  PaymentHeaderError,
  parsePaymentPayloadV2,
  paymentRequiredV2,
  v1PayloadOf,
  X402_V2,
  X402_VERSION,
  type PaymentPayload,
  type PaymentRequirements,
  type PaymentResponse,
} from "../../pay";

/** The payment as it reached us; every field optional (absent = payment required). */
export interface PresentedPayment {
  /** `X-PAYMENT` header (v1). */
  v1?: string | null;
  /** `PAYMENT-SIGNATURE` header (v2). */
  v2?: string | null;
  /** MCP `params._meta["x402/payment"]`: a PaymentPayload object of either version. */
  object?: unknown;
}

export type X402Version = typeof X402_VERSION | typeof X402_V2;

export type Decoded =
  | { ok: true; version: X402Version; payload: PaymentPayload }
  | { ok: false; version: X402Version; code: string; message: string };

export const isPresented = (p: PresentedPayment) => Boolean(p.v1) || Boolean(p.v2) || (p.object !== undefined && p.object !== null);

export function decodePresented(presented: PresentedPayment, requirements: PaymentRequirements): Decoded {
  const given = [presented.v1 ? 1 : 0, presented.v2 ? 1 : 0, presented.object != null ? 1 : 0].reduce((a, b) => a + b, 0);
  const version: X402Version = presented.v2 || versionOf(presented.object) === X402_V2 ? X402_V2 : X402_VERSION;
  if (given > 1) return { ok: false, version, code: "payment_malformed", message: "Send one payment: X-PAYMENT (v1), PAYMENT-SIGNATURE (v2) or _meta[\"x402/payment\"], not several" };
  try {
    if (presented.v1) return { ok: true, version: X402_VERSION, payload: decodePaymentHeader(presented.v1) };
    if (presented.v2) return fromV2(decodePaymentSignature(presented.v2), requirements);
    const object = presented.object;
    if (!isRecord(object)) return { ok: false, version, code: "payment_malformed", message: "_meta[\"x402/payment\"] must be a PaymentPayload object" };
    if (object.x402Version === X402_V2) return fromV2(parsePaymentPayloadV2(object, "_meta[\"x402/payment\"]"), requirements);
    // v1 objects go through the same codec as the header, so both are held to one shape.
    return { ok: true, version: X402_VERSION, payload: decodePaymentHeader(Buffer.from(JSON.stringify(object)).toString("base64")) };
  } catch (error) {
    if (error instanceof PaymentHeaderError) return { ok: false, version, code: error.code, message: error.message };
    throw error;
  }
}

function fromV2(payment: ReturnType<typeof decodePaymentSignature>, requirements: PaymentRequirements): Decoded {
  const payload = v1PayloadOf(payment, requirements);
  if ("code" in payload) return { ok: false, version: X402_V2, ...payload };
  return { ok: true, version: X402_V2, payload };
}

/** The settlement as the payer's version spells it: the object (MCP `_meta`) and the header. */
export function settlementFor(version: X402Version, response: PaymentResponse): { object: PaymentResponse; headers: Record<string, string> } {
  if (version === X402_V2) {
    return { object: { ...response, network: NETWORK_V2 }, headers: { [PAYMENT_RESPONSE_HEADER_V2]: encodePaymentResponseV2(response) } };
  }
  return { object: { ...response, network: NETWORK }, headers: { [PAYMENT_RESPONSE_HEADER]: encodePaymentResponse(response) } };
}

/** Every 402 carries the v2 terms in PAYMENT-REQUIRED beside the v1 body: each client reads its own. */
export const paymentRequiredHeaders = (error: string, requirements: PaymentRequirements) => ({
  [PAYMENT_REQUIRED_HEADER_V2]: encodePaymentRequiredV2(paymentRequiredV2(error, [requirements])),
});

function versionOf(object: unknown): unknown {
  return isRecord(object) ? object.x402Version : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
