// One paid call, in the fixed order of the contract: check the payment, reserve its nonce, verify,
// run the job, settle last. Shared by the HTTP routes and the MCP tools; returns plain data (no HTTP).
import {
  checkPayment,
  decodePaymentHeader,
  encodePaymentResponse,
  FacilitatorProtocolError,
  FacilitatorUnavailableError,
  FacilitatorUnsupportedError,
  NETWORK,
  PAYMENT_RESPONSE_HEADER,
  PaymentHeaderError,
  paymentRequiredBody,
  type PaymentPayload,
  type PaymentRequiredBody,
  type PaymentRequirements,
} from "../../pay";
import type { Logger } from "../../lib/log";
import type { PaymentLedger } from "./ledger";
import { RailUnconfiguredError, type Rail } from "./rail";

/** validBefore must leave this long for the job and the settlement (the chain checks it at settle). */
export const MIN_REMAINING_SECONDS = 30;

export interface PaidCallInput<T> {
  /** The quote: one `accepts` entry, from Rail.requirements. */
  requirements: PaymentRequirements;
  /** Raw `X-PAYMENT` value; absent → payment required. */
  paymentHeader: string | null | undefined;
  /** The job. Runs only after the payment verified; `thin` results are never settled. */
  run: () => Promise<{ result: T; thin: boolean }>;
}

/** What the caller learns about the money. `amount` is what moved: the quote, or "0" when not settled. */
export interface PaymentReceipt {
  tx_hash: string | null;
  payer: string;
  amount: string;
  settled: boolean;
  network: typeof NETWORK;
}

/** 402: the terms, why the payment (if any) was refused, and extra fields such as `payer`. */
export type PaymentRequiredReply = PaymentRequiredBody & { message: string; payer?: string };

export type PaidCallOutcome<T> =
  | { ok: true; status: 200; result: T; thin: boolean; payment: PaymentReceipt; headers: Record<string, string> }
  | { ok: false; status: 402; body: PaymentRequiredReply; headers: Record<string, string> }
  | { ok: false; status: 502 | 503; body: { error: { code: string; message: string } }; headers: Record<string, string> };

export interface PaidCallDeps {
  rail: Rail;
  ledger: PaymentLedger;
  log: Logger;
  /** Unix seconds (tests move it). */
  now?: () => number;
}

export type PaidCall = <T>(input: PaidCallInput<T>) => Promise<PaidCallOutcome<T>>;

export function createPaidCall(deps: PaidCallDeps): PaidCall {
  const now = deps.now ?? (() => Date.now() / 1000);
  const { ledger, log } = deps;

  return async function paidCall<T>({ requirements, paymentHeader, run }: PaidCallInput<T>): Promise<PaidCallOutcome<T>> {
    const refuse = (error: string, message: string, payer?: string, headers: Record<string, string> = {}) =>
      paymentRequired(requirements, error, message, payer, headers);
    // Terms nobody can settle are not offered (a paid brain left over after the facilitator was unset).
    if (!deps.rail.configured) return facilitatorTrouble(new RailUnconfiguredError("no x402 facilitator is configured"), "nothing can be paid here now");
    if (!paymentHeader) return refuse("payment_required", `Pay ${requirements.maxAmountRequired} atomic units: sign the terms in accepts and retry with X-PAYMENT`);

    let payload: PaymentPayload;
    try {
      payload = decodePaymentHeader(paymentHeader);
    } catch (error) {
      if (error instanceof PaymentHeaderError) return refuse(error.code, error.message);
      throw error;
    }
    // Local checks first: junk never reaches the facilitator, the ledger or the job.
    const local = await checkPayment(payload, requirements, now(), { minRemainingSeconds: MIN_REMAINING_SECONDS });
    if (!local.ok) return refuse(local.code, local.message, payload.payload?.authorization?.from);
    const payer = local.payer;

    let facilitator;
    try {
      facilitator = await deps.rail.facilitator();
    } catch (error) {
      return facilitatorTrouble(error, "nothing was reserved or settled");
    }
    const reserved = await ledger.reserve(local.nonce, payer, {
      payTo: requirements.payTo,
      resource: requirements.resource,
      amountAtomic: requirements.maxAmountRequired,
    });
    if (!reserved) return refuse("payment_replayed", "This authorization (nonce) was already presented; sign a new one", payer);

    const verifyStart = performance.now();
    try {
      const verified = await facilitator.verify(payload, requirements);
      if (!verified.isValid) {
        await ledger.release(local.nonce);
        return refuse(verified.invalidReason ?? "payment_invalid", `The facilitator refused the payment: ${verified.invalidReason ?? "invalid"}`, payer);
      }
      if (verified.payer && verified.payer.toLowerCase() !== payer.toLowerCase()) {
        await ledger.release(local.nonce);
        return refuse("payment_payer_mismatch", "The facilitator saw another payer than the signature", payer);
      }
    } catch (error) {
      await ledger.release(local.nonce);
      return facilitatorTrouble(error, "the payment was not used; retry the same header later");
    }
    const verifyMs = performance.now() - verifyStart;

    // From here the job has started: the nonce is never released again, whatever happens.
    let job: { result: T; thin: boolean };
    try {
      job = await run();
    } catch (error) {
      await ledger.markVoided(local.nonce, `job_failed: ${errorText(error)}`.slice(0, 500));
      throw error;
    }
    if (job.thin) {
      await ledger.markVoided(local.nonce, "thin");
      return { ok: true, status: 200, result: job.result, thin: true, payment: receipt(payer, null, "0"), headers: {} };
    }

    const settleStart = performance.now();
    let settled;
    try {
      settled = await facilitator.settle(payload, requirements);
    } catch (error) {
      // The transfer may or may not have landed: keep the nonce, withhold the result, say so.
      await ledger.markUnknown(local.nonce, `settle_unreachable: ${errorText(error)}`.slice(0, 500));
      log.error("x402 settle outcome unknown", { nonce: local.nonce, payer, error: errorText(error) });
      return facilitatorTrouble(error, "the result is withheld; the settlement outcome is unknown");
    }
    const settleMs = performance.now() - settleStart;
    const responseHeader = encodePaymentResponse({
      success: settled.success,
      transaction: settled.transaction,
      network: settled.network || NETWORK,
      payer,
      ...(settled.errorReason !== undefined ? { errorReason: settled.errorReason } : {}),
    });
    if (!settled.success) {
      await ledger.markVoided(local.nonce, `settle_failed: ${settled.errorReason ?? "unknown"}`);
      return refuse(settled.errorReason ?? "settle_failed", "Settlement failed after the job: the result is withheld", payer, {
        [PAYMENT_RESPONSE_HEADER]: responseHeader,
      });
    }
    // The money moved: whatever the bookkeeping does, the caller gets the result.
    await ledger.markSettled(local.nonce, settled.transaction).catch((error: unknown) =>
      log.error("x402 ledger write failed after settlement", { nonce: local.nonce, tx: settled.transaction, error: errorText(error) }),
    );
    log.info("x402 settled", { payer, amount: requirements.maxAmountRequired, tx: settled.transaction, verifyMs: Math.round(verifyMs), settleMs: Math.round(settleMs) });
    return {
      ok: true,
      status: 200,
      result: job.result,
      thin: false,
      payment: receipt(payer, settled.transaction, requirements.maxAmountRequired),
      headers: { [PAYMENT_RESPONSE_HEADER]: responseHeader },
    };
  };
}

export function paymentRequired(
  requirements: PaymentRequirements,
  error: string,
  message: string,
  payer?: string,
  headers: Record<string, string> = {},
): Extract<PaidCallOutcome<never>, { status: 402 }> {
  return {
    ok: false,
    status: 402,
    body: { ...paymentRequiredBody(error, [requirements]), message, ...(payer ? { payer } : {}) },
    headers,
  };
}

function receipt(payer: string, tx: string | null, amount: string): PaymentReceipt {
  return { tx_hash: tx, payer, amount, settled: tx !== null, network: NETWORK };
}

/** 503 when the facilitator is unreachable, unconfigured or unsuitable; 502 when it answered nonsense. */
function facilitatorTrouble(error: unknown, consequence: string): Extract<PaidCallOutcome<never>, { status: 502 | 503 }> {
  if (error instanceof FacilitatorProtocolError) return upstream(502, "facilitator_bad_response", `${error.message}; ${consequence}`);
  if (error instanceof RailUnconfiguredError) return upstream(503, error.code, `${error.message}; ${consequence}`);
  if (error instanceof FacilitatorUnsupportedError) return upstream(503, error.code, `${error.message}; ${consequence}`);
  if (error instanceof FacilitatorUnavailableError) return upstream(503, error.code, `${error.message}; ${consequence}`);
  throw error;
}

function upstream(status: 502 | 503, code: string, message: string): Extract<PaidCallOutcome<never>, { status: 502 | 503 }> {
  return { ok: false, status, body: { error: { code, message } }, headers: status === 503 ? { "Retry-After": "30" } : {} };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
