// Facilitator: the party that verifies an x402 payment and settles it on chain, paying the gas.
// Two implementations behind one interface: the client for the standard facilitator HTTP API (here),
// and an embedded one that talks to an RPC node itself (embedded-facilitator.ts).
import { NETWORK, SCHEME, X402_VERSION, type PaymentPayload, type PaymentRequirements } from "./wire.ts";

export interface SupportedKind {
  x402Version: number;
  scheme: string;
  network: string;
}

export interface VerifyResult {
  isValid: boolean;
  /** x402 ErrorReasons string, e.g. insufficient_funds, invalid_exact_evm_payload_signature. */
  invalidReason?: string;
  payer?: string;
}

export interface SettleResult {
  success: boolean;
  errorReason?: string;
  /** Transaction hash; "" when nothing was submitted. */
  transaction: string;
  network: string;
  payer?: string;
}

export interface Facilitator {
  supported(): Promise<SupportedKind[]>;
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResult>;
  /** A FacilitatorUnavailableError from settle means the outcome is unknown: the transfer may have landed. */
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResult>;
}

export type FacilitatorOperation = "supported" | "verify" | "settle";

/** Network down, timeout, 5xx/429, RPC unreachable: retry later; never treat as "payment invalid". */
export class FacilitatorUnavailableError extends Error {
  override readonly name = "FacilitatorUnavailableError";
  readonly code = "facilitator_unavailable";
  constructor(
    readonly operation: FacilitatorOperation,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`facilitator ${operation}: ${message}`, options);
  }
}

/** The facilitator answered, but not in the x402 shape (wrong URL, incompatible version, 4xx error body). */
export class FacilitatorProtocolError extends Error {
  override readonly name = "FacilitatorProtocolError";
  readonly code = "facilitator_protocol";
  constructor(
    readonly operation: FacilitatorOperation,
    message: string,
  ) {
    super(`facilitator ${operation}: ${message}`);
  }
}

/** Startup check failed: the facilitator does not settle `exact` on `base` for x402 v1. */
export class FacilitatorUnsupportedError extends Error {
  override readonly name = "FacilitatorUnsupportedError";
  readonly code = "facilitator_unsupported";
}

export interface HttpFacilitatorOptions {
  /** Per request, for supported and verify. */
  timeoutMs: number;
  /** Settle waits for on-chain inclusion, so it gets longer (default 4 × timeoutMs). */
  settleTimeoutMs?: number;
  /** Extra request headers, e.g. an API key for a hosted facilitator. */
  headers?: Record<string, string>;
}

/** Client for `GET /supported`, `POST /verify`, `POST /settle` under `url`. */
export function createHttpFacilitator(url: string, options: HttpFacilitatorOptions): Facilitator {
  const base = url.replace(/\/+$/, "");
  const settleTimeoutMs = options.settleTimeoutMs ?? options.timeoutMs * 4;

  async function call(operation: FacilitatorOperation, timeoutMs: number, body?: unknown) {
    const target = `${base}/${operation}`;
    let status: number;
    let text: string;
    try {
      const response = await fetch(target, {
        method: body === undefined ? "GET" : "POST",
        headers: { accept: "application/json", "content-type": "application/json", ...options.headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
      status = response.status;
      text = await response.text(); // the timeout signal also bounds reading the body
    } catch (error) {
      const why = isTimeout(error) ? `no answer within ${timeoutMs} ms` : errorMessage(error);
      throw new FacilitatorUnavailableError(operation, `${target}: ${why}`, { cause: error });
    }
    // 429 and 5xx are the facilitator's trouble, not the payment's.
    if (status >= 500 || status === 429 || status === 408) {
      throw new FacilitatorUnavailableError(operation, `${target} answered ${status}: ${text.slice(0, 200)}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new FacilitatorProtocolError(operation, `${target} answered ${status} with non-JSON: ${text.slice(0, 200)}`);
    }
    return { status, json };
  }

  const request = (paymentPayload: PaymentPayload, paymentRequirements: PaymentRequirements) => ({
    x402Version: X402_VERSION,
    paymentPayload,
    paymentRequirements,
  });

  return {
    async supported() {
      const { status, json } = await call("supported", options.timeoutMs);
      const kinds = isRecord(json) ? json.kinds : undefined;
      if (status !== 200 || !Array.isArray(kinds)) {
        throw new FacilitatorProtocolError("supported", `expected 200 {kinds:[...]}, got ${status} ${JSON.stringify(json).slice(0, 200)}`);
      }
      return kinds.filter(isRecord).map((k) => ({
        x402Version: Number(k.x402Version),
        scheme: String(k.scheme),
        network: String(k.network),
      }));
    },

    async verify(payload, requirements) {
      const { status, json } = await call("verify", options.timeoutMs, request(payload, requirements));
      // Some facilitators answer an invalid payment with 400 and a normal verify body: accept that too.
      if (!isRecord(json) || typeof json.isValid !== "boolean" || (status !== 200 && json.isValid)) {
        throw new FacilitatorProtocolError("verify", `unexpected answer ${status} ${JSON.stringify(json).slice(0, 200)}`);
      }
      return {
        isValid: json.isValid,
        ...(typeof json.invalidReason === "string" ? { invalidReason: json.invalidReason } : {}),
        ...(typeof json.payer === "string" ? { payer: json.payer } : {}),
      };
    },

    async settle(payload, requirements) {
      const { status, json } = await call("settle", settleTimeoutMs, request(payload, requirements));
      if (!isRecord(json) || typeof json.success !== "boolean" || (status !== 200 && json.success)) {
        throw new FacilitatorProtocolError("settle", `unexpected answer ${status} ${JSON.stringify(json).slice(0, 200)}`);
      }
      return {
        success: json.success,
        ...(typeof json.errorReason === "string" ? { errorReason: json.errorReason } : {}),
        transaction: typeof json.transaction === "string" ? json.transaction : "",
        network: typeof json.network === "string" ? json.network : NETWORK,
        ...(typeof json.payer === "string" ? { payer: json.payer } : {}),
      };
    },
  };
}

/** Run at startup: fails fast with a readable error instead of a 402 loop at the first paid request. */
export async function assertFacilitatorSupportsBase(facilitator: Facilitator): Promise<void> {
  const kinds = await facilitator.supported();
  const ok = kinds.some((k) => k.x402Version === X402_VERSION && k.scheme === SCHEME && k.network === NETWORK);
  if (!ok) {
    const listed = kinds.map((k) => `v${k.x402Version}/${k.scheme}/${k.network}`).join(", ") || "nothing";
    throw new FacilitatorUnsupportedError(
      `facilitator does not support x402 v${X402_VERSION} "${SCHEME}" on "${NETWORK}" (it lists: ${listed})`,
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
