// x402 v2 wire (the `exact` scheme on `eip155:8453`), beside v1 (wire.ts). The authorization and its
// EIP-3009 signature are the same bytes in both versions (same token domain, chain id 8453), so a v2
// payment is checked, verified and settled as the v1 payload it carries: one flow, one facilitator.
// Headers: PAYMENT-REQUIRED (402 terms), PAYMENT-SIGNATURE (the payment), PAYMENT-RESPONSE (settlement).
import {
  NETWORK,
  PaymentHeaderError,
  SCHEME,
  X402_VERSION,
  type ExactEvmAuthorization,
  type PaymentPayload,
  type PaymentRequirements,
  type PaymentResponse,
} from "./wire.ts";

export const X402_V2 = 2;
/** CAIP-2 id of base: what v2 names the network `base`. */
export const NETWORK_V2 = "eip155:8453";
export const PAYMENT_REQUIRED_HEADER_V2 = "PAYMENT-REQUIRED";
export const PAYMENT_SIGNATURE_HEADER_V2 = "PAYMENT-SIGNATURE";
export const PAYMENT_RESPONSE_HEADER_V2 = "PAYMENT-RESPONSE";

const MAX_HEADER_CHARS = 16384; // v2 payloads repeat the terms and the resource: larger than v1's
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const DECIMAL = /^(0|[1-9][0-9]*)$/;

export interface ResourceInfoV2 {
  url: string;
  description?: string;
  mimeType?: string;
}

/** One v2 `accepts` entry: `amount` instead of `maxAmountRequired`, resource moved to the envelope. */
export interface PaymentRequirementsV2 {
  scheme: typeof SCHEME;
  network: typeof NETWORK_V2;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

export interface PaymentRequiredV2 {
  x402Version: typeof X402_V2;
  error?: string;
  resource: ResourceInfoV2;
  accepts: PaymentRequirementsV2[];
}

/** Decoded PAYMENT-SIGNATURE: the chosen terms (`accepted`) and the signed authorization. */
export interface PaymentPayloadV2 {
  x402Version: typeof X402_V2;
  resource?: ResourceInfoV2;
  accepted: PaymentRequirementsV2;
  payload: { signature: string; authorization: ExactEvmAuthorization };
}

export function requirementsV2(requirements: PaymentRequirements): PaymentRequirementsV2 {
  return {
    scheme: SCHEME,
    network: NETWORK_V2,
    amount: requirements.maxAmountRequired,
    asset: requirements.asset,
    payTo: requirements.payTo,
    maxTimeoutSeconds: requirements.maxTimeoutSeconds,
    extra: { name: requirements.extra.name, version: requirements.extra.version },
  };
}

export function paymentRequiredV2(error: string | undefined, accepts: PaymentRequirements[]): PaymentRequiredV2 {
  const first = accepts[0]!;
  return {
    x402Version: X402_V2,
    ...(error ? { error } : {}),
    resource: { url: first.resource, description: first.description, mimeType: first.mimeType },
    accepts: accepts.map(requirementsV2),
  };
}

export const encodeBase64Json = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");

/** Value of PAYMENT-REQUIRED: base64 of the v2 PaymentRequired. */
export const encodePaymentRequiredV2 = (body: PaymentRequiredV2) => encodeBase64Json(body);

/** Value of PAYMENT-RESPONSE: the settlement with the CAIP-2 network. */
export function encodePaymentResponseV2(response: PaymentResponse): string {
  return encodeBase64Json({
    success: response.success,
    transaction: response.transaction,
    network: NETWORK_V2,
    payer: response.payer,
    ...(response.errorReason !== undefined ? { errorReason: response.errorReason } : {}),
  });
}

export function decodeBase64Json(header: string, name: string): Record<string, unknown> {
  const text = header.trim();
  if (text.length === 0 || text.length > MAX_HEADER_CHARS || !BASE64.test(text) || text.length % 4 === 1) {
    throw new PaymentHeaderError("payment_malformed", `${name} is not base64`);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, "base64").toString("utf8"));
  } catch {
    throw new PaymentHeaderError("payment_malformed", `${name} is not base64-encoded JSON`);
  }
  if (!isRecord(json)) throw new PaymentHeaderError("payment_malformed", `${name} is not a JSON object`);
  return json;
}

/** Parses PAYMENT-SIGNATURE (or a v2 object from MCP `_meta`). Throws PaymentHeaderError. */
export function decodePaymentSignature(header: string): PaymentPayloadV2 {
  return parsePaymentPayloadV2(decodeBase64Json(header, PAYMENT_SIGNATURE_HEADER_V2));
}

export function parsePaymentPayloadV2(json: Record<string, unknown>, name = PAYMENT_SIGNATURE_HEADER_V2): PaymentPayloadV2 {
  if (json.x402Version !== X402_V2) {
    throw new PaymentHeaderError("payment_version", `${name}: unsupported x402Version ${JSON.stringify(json.x402Version)}, expected 2`);
  }
  const accepted = json.accepted;
  if (!isRecord(accepted)) throw new PaymentHeaderError("payment_malformed", `${name} lacks accepted`);
  for (const field of ["scheme", "network", "amount", "asset", "payTo"] as const) {
    if (typeof accepted[field] !== "string") throw new PaymentHeaderError("payment_malformed", `${name} lacks accepted.${field}`);
  }
  const inner = json.payload;
  if (!isRecord(inner) || typeof inner.signature !== "string" || !isRecord(inner.authorization)) {
    throw new PaymentHeaderError("payment_malformed", `${name} lacks payload.signature or payload.authorization`);
  }
  const auth = inner.authorization;
  for (const field of ["from", "to", "nonce"] as const) {
    if (typeof auth[field] !== "string") throw new PaymentHeaderError("payment_malformed", `${name} lacks authorization.${field}`);
  }
  for (const field of ["value", "validAfter", "validBefore"] as const) {
    const v = auth[field];
    if (typeof v !== "string" || !DECIMAL.test(v)) throw new PaymentHeaderError("payment_malformed", `${name} authorization.${field} is not a decimal integer string`);
  }
  return json as unknown as PaymentPayloadV2;
}

/**
 * The v1 payload a v2 payment carries, once its chosen terms match ours; the local checks then verify the
 * signature over the token and chain, the value against the quote and the window, exactly as for v1.
 * Returns an error code and message when the chosen terms are not ours.
 */
export function v1PayloadOf(payment: PaymentPayloadV2, requirements: PaymentRequirements): PaymentPayload | { code: string; message: string } {
  const accepted = payment.accepted;
  if (accepted.scheme !== SCHEME) return { code: "payment_scheme", message: `accepted.scheme ${JSON.stringify(accepted.scheme)} is not ${SCHEME}` };
  if (accepted.network !== NETWORK_V2) return { code: "payment_network", message: `accepted.network ${JSON.stringify(accepted.network)} is not ${NETWORK_V2}` };
  if (accepted.asset.toLowerCase() !== requirements.asset.toLowerCase()) return { code: "payment_asset", message: "accepted.asset is not the token quoted" };
  if (accepted.payTo.toLowerCase() !== requirements.payTo.toLowerCase()) return { code: "payment_recipient", message: "accepted.payTo is not the payTo address" };
  if (accepted.amount !== requirements.maxAmountRequired) return { code: "payment_amount", message: `accepted.amount ${accepted.amount} is not the quote ${requirements.maxAmountRequired}` };
  return { x402Version: X402_VERSION, scheme: SCHEME, network: NETWORK, payload: payment.payload };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
