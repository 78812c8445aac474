// x402 v1 wire types and codecs (the `exact` scheme on the EVM network `base`).
// Everything here is plain data: no HTTP framework types, no chain access.

export const X402_VERSION = 1;
export const NETWORK = "base";
export const SCHEME = "exact";
/** EIP-155 id of `base`: the chain id inside every EIP-712 domain we accept. */
export const BASE_CHAIN_ID = 8453;

/** Headers, named once so server and tests agree (HTTP header names are case-insensitive). */
export const PAYMENT_HEADER = "X-PAYMENT";
export const PAYMENT_RESPONSE_HEADER = "X-PAYMENT-RESPONSE";

/** Large enough for any EOA payment (~600 bytes encoded); stops a giant header before JSON.parse. */
const MAX_HEADER_CHARS = 8192;

/** One entry of the 402 body's `accepts` array. Amounts are decimal strings in atomic units (USDC: 6 decimals). */
export interface PaymentRequirements {
  scheme: typeof SCHEME;
  network: typeof NETWORK;
  /** The quote: with `exact` the signed value must equal it. */
  maxAmountRequired: string;
  /** Token contract (EIP-3009), also the EIP-712 verifyingContract. */
  asset: string;
  payTo: string;
  /** Absolute URL of the paid resource. */
  resource: string;
  description: string;
  mimeType: string;
  maxTimeoutSeconds: number;
  outputSchema?: Record<string, unknown>;
  /** EIP-712 domain name and version of `asset` (USDC: "USD Coin", "2"). */
  extra: { name: string; version: string };
}

export interface PaymentRequiredBody {
  x402Version: typeof X402_VERSION;
  error: string;
  accepts: PaymentRequirements[];
}

/** EIP-3009 TransferWithAuthorization message; integers as decimal strings. */
export interface ExactEvmAuthorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

/** Decoded `X-PAYMENT` header. Field contents are only shape-checked here; see checks.ts. */
export interface PaymentPayload {
  x402Version: typeof X402_VERSION;
  scheme: string;
  network: string;
  payload: { signature: string; authorization: ExactEvmAuthorization };
}

export interface PaymentResponse {
  success: boolean;
  transaction: string;
  network: string;
  payer: string;
  errorReason?: string;
}

export type PaymentHeaderErrorCode = "payment_malformed" | "payment_version";

export class PaymentHeaderError extends Error {
  override readonly name = "PaymentHeaderError";
  constructor(
    readonly code: PaymentHeaderErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function paymentRequiredBody(error: string, accepts: PaymentRequirements[]): PaymentRequiredBody {
  return { x402Version: X402_VERSION, error, accepts };
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export interface RequirementsInput {
  maxAmountRequired: bigint | string;
  asset: string;
  payTo: string;
  resource: string;
  description: string;
  mimeType?: string;
  maxTimeoutSeconds: number;
  outputSchema?: Record<string, unknown>;
  extra: { name: string; version: string };
}

/** Builds one `accepts` entry, throwing on values that would only fail later at the client or on chain. */
export function makeRequirements(input: RequirementsInput): PaymentRequirements {
  const amount = String(input.maxAmountRequired);
  if (!DECIMAL.test(amount) || amount === "0") throw new TypeError(`maxAmountRequired must be a positive integer: ${amount}`);
  if (!ADDRESS.test(input.asset)) throw new TypeError(`asset is not an address: ${input.asset}`);
  if (!ADDRESS.test(input.payTo)) throw new TypeError(`payTo is not an address: ${input.payTo}`);
  if (!URL.canParse(input.resource)) throw new TypeError(`resource must be an absolute URL: ${input.resource}`);
  if (!Number.isInteger(input.maxTimeoutSeconds) || input.maxTimeoutSeconds <= 0) {
    throw new TypeError(`maxTimeoutSeconds must be a positive integer: ${input.maxTimeoutSeconds}`);
  }
  return {
    scheme: SCHEME,
    network: NETWORK,
    maxAmountRequired: amount,
    asset: input.asset,
    payTo: input.payTo,
    resource: input.resource,
    description: input.description,
    mimeType: input.mimeType ?? "application/json",
    maxTimeoutSeconds: input.maxTimeoutSeconds,
    ...(input.outputSchema ? { outputSchema: input.outputSchema } : {}),
    extra: { name: input.extra.name, version: input.extra.version },
  };
}

// Standard or URL-safe alphabet, optional padding; Buffer's own decoder silently skips junk.
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Parses `X-PAYMENT`. Throws PaymentHeaderError: `payment_malformed` (base64/JSON/shape) or `payment_version`. */
export function decodePaymentHeader(header: string): PaymentPayload {
  const text = header.trim();
  if (text.length === 0 || text.length > MAX_HEADER_CHARS || !BASE64.test(text) || text.length % 4 === 1) {
    throw new PaymentHeaderError("payment_malformed", "X-PAYMENT is not base64");
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, "base64").toString("utf8"));
  } catch {
    throw new PaymentHeaderError("payment_malformed", "X-PAYMENT is not base64-encoded JSON");
  }
  if (!isRecord(json)) throw new PaymentHeaderError("payment_malformed", "X-PAYMENT is not a JSON object");
  // Version first: another version legitimately has another shape, and deserves its own error.
  if (json.x402Version !== X402_VERSION) {
    throw new PaymentHeaderError("payment_version", `unsupported x402Version ${JSON.stringify(json.x402Version)}, expected 1`);
  }
  const problem = shapeProblem(json);
  if (problem) throw new PaymentHeaderError("payment_malformed", `X-PAYMENT ${problem}`);
  return json as unknown as PaymentPayload;
}

function shapeProblem(json: Record<string, unknown>): string | undefined {
  if (typeof json.scheme !== "string") return "lacks scheme";
  if (typeof json.network !== "string") return "lacks network";
  const inner = json.payload;
  if (!isRecord(inner)) return "lacks payload";
  if (typeof inner.signature !== "string") return "lacks payload.signature";
  const auth = inner.authorization;
  if (!isRecord(auth)) return "lacks payload.authorization";
  for (const field of ["from", "to", "nonce"] as const) {
    if (typeof auth[field] !== "string") return `lacks authorization.${field}`;
  }
  for (const field of ["value", "validAfter", "validBefore"] as const) {
    const v = auth[field];
    if (typeof v !== "string" || !DECIMAL.test(v)) return `authorization.${field} is not a decimal integer string`;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Value of the `X-PAYMENT-RESPONSE` header: base64 of the settlement JSON. */
export function encodePaymentResponse(response: PaymentResponse): string {
  const body: PaymentResponse = {
    success: response.success,
    transaction: response.transaction,
    network: response.network,
    payer: response.payer,
    ...(response.errorReason !== undefined ? { errorReason: response.errorReason } : {}),
  };
  return Buffer.from(JSON.stringify(body), "utf8").toString("base64");
}

/** Inverse of encodePaymentResponse, for clients and tests. Throws on anything else. */
export function decodePaymentResponse(header: string): PaymentResponse {
  const json: unknown = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  if (!isRecord(json) || typeof json.success !== "boolean" || typeof json.transaction !== "string") {
    throw new TypeError("not an X-PAYMENT-RESPONSE value");
  }
  return json as unknown as PaymentResponse;
}
