// The checks the server runs itself before asking a facilitator to verify: cheap, local, no I/O.
// A facilitator's own verify is not trusted for them (x402@1.2.0's accepts a value above the quote
// and ignores the network), and rejecting here keeps junk away from the facilitator and the job.
import { verifyTypedData, type Address, type Hex } from "viem";
import { authorizationDomain, authorizationMessage, transferWithAuthorizationTypes } from "./eip3009.ts";
import { NETWORK, SCHEME, X402_VERSION, type PaymentPayload, type PaymentRequirements } from "./wire.ts";

export type CheckCode =
  | "payment_version"
  | "payment_scheme"
  | "payment_network"
  | "payment_malformed" // an address or integer field is not well-formed
  | "payment_signature_malformed" // absent, not hex, not 65 bytes
  | "payment_nonce_malformed" // not 32 bytes of hex
  | "payment_recipient" // authorization.to is not payTo
  | "payment_amount" // value differs from the quote, in either direction
  | "payment_not_yet_valid" // validAfter is in the future
  | "payment_expired" // validBefore is past, or too close to leave time to run the job and settle
  | "payment_window_too_long" // validBefore is further out than maxTimeoutSeconds allows
  | "payment_invalid_signature"; // not signed by `from` over this token's domain and these exact fields

export type CheckResult =
  | { ok: true; payer: Address; value: bigint; nonce: Hex }
  | { ok: false; code: CheckCode; message: string };

export interface CheckOptions {
  /** validBefore must be at least this far after now (x402's own facilitator uses 6). */
  minRemainingSeconds?: number;
  /** Tolerated client clock lead when bounding validBefore by maxTimeoutSeconds. */
  clockSlackSeconds?: number;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DECIMAL = /^(0|[1-9][0-9]*)$/;
const NONCE = /^0x[0-9a-fA-F]{64}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
// secp256k1 n/2: tokens like USDC reject high-s signatures, so accepting one here would only fail at settle.
const MAX_S = 0x7fffffffffffffffffffffffffffffff5d576e73_57a4501d_dfe92f46_681b20a0n;

/**
 * Checks a decoded payment against the requirements we quoted, `now` in unix seconds.
 * Signature verification runs last (the only costly step) but before any facilitator call.
 * Throws only if `requirements` themselves are malformed (a server bug, not a client error).
 */
export async function checkPayment(
  payload: PaymentPayload,
  requirements: PaymentRequirements,
  now: number,
  options: CheckOptions = {},
): Promise<CheckResult> {
  const minRemaining = options.minRemainingSeconds ?? 6;
  const slack = options.clockSlackSeconds ?? 30;
  const nowS = BigInt(Math.floor(now));
  const auth = payload.payload?.authorization;
  const signature = payload.payload?.signature;

  if (payload.x402Version !== X402_VERSION) return fail("payment_version", "x402Version must be 1");
  if (payload.scheme !== SCHEME || payload.scheme !== requirements.scheme) {
    return fail("payment_scheme", `scheme ${JSON.stringify(payload.scheme)} is not ${SCHEME}`);
  }
  if (payload.network !== NETWORK || payload.network !== requirements.network) {
    return fail("payment_network", `network ${JSON.stringify(payload.network)} is not ${NETWORK}`);
  }
  if (!auth) return fail("payment_malformed", "authorization missing");
  if (!isAddress(auth.from)) return fail("payment_malformed", "authorization.from is not an address");
  if (!isAddress(auth.to)) return fail("payment_malformed", "authorization.to is not an address");
  for (const field of ["value", "validAfter", "validBefore"] as const) {
    if (!isDecimal(auth[field])) return fail("payment_malformed", `authorization.${field} is not a decimal integer`);
  }
  if (typeof signature !== "string" || !SIGNATURE.test(signature)) {
    return fail("payment_signature_malformed", "signature must be 65 bytes of 0x-hex");
  }
  if (typeof auth.nonce !== "string" || !NONCE.test(auth.nonce)) {
    return fail("payment_nonce_malformed", "nonce must be 32 bytes of 0x-hex");
  }

  if (auth.to.toLowerCase() !== requirements.payTo.toLowerCase()) {
    return fail("payment_recipient", "authorization.to is not the payTo address");
  }
  const value = BigInt(auth.value);
  const quote = BigInt(requirements.maxAmountRequired);
  if (value !== quote) {
    // With `exact` the signed value is what moves, so anything but the quote is refused both ways.
    return fail("payment_amount", `value ${value} ${value > quote ? "exceeds" : "is below"} the quote ${quote}`);
  }

  const validAfter = BigInt(auth.validAfter);
  const validBefore = BigInt(auth.validBefore);
  if (validAfter > nowS) return fail("payment_not_yet_valid", `validAfter ${validAfter} is after now ${nowS}`);
  if (validBefore <= nowS + BigInt(minRemaining)) {
    return fail("payment_expired", `validBefore ${validBefore} leaves under ${minRemaining}s`);
  }
  const latest = nowS + BigInt(requirements.maxTimeoutSeconds) + BigInt(slack);
  if (validBefore > latest) {
    return fail("payment_window_too_long", `validBefore ${validBefore} is beyond maxTimeoutSeconds (latest ${latest})`);
  }

  if (BigInt(`0x${signature.slice(66, 130)}`) > MAX_S) {
    return fail("payment_invalid_signature", "signature is not canonical (high s)");
  }
  const message = authorizationMessage(auth);
  let valid = false;
  try {
    valid = await verifyTypedData({
      address: message.from,
      domain: authorizationDomain(requirements),
      types: transferWithAuthorizationTypes,
      primaryType: "TransferWithAuthorization",
      message,
      signature: signature as Hex,
    });
  } catch {
    valid = false; // unrecoverable signature (bad v, r or s out of range)
  }
  if (!valid) {
    return fail("payment_invalid_signature", "signature is not from authorization.from over this token, network and these fields");
  }
  return { ok: true, payer: message.from, value, nonce: auth.nonce as Hex };
}

function fail(code: CheckCode, message: string): CheckResult {
  return { ok: false, code, message };
}

function isAddress(value: unknown): value is string {
  return typeof value === "string" && ADDRESS.test(value);
}

function isDecimal(value: unknown): value is string {
  return typeof value === "string" && DECIMAL.test(value);
}
