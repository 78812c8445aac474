// One paid call, in the fixed order of the contract: check the payment, reserve its nonce, verify,
// run the job, settle last. Shared by the HTTP routes and the MCP tools; returns plain data (no HTTP).
// A payment presented again whose settlement went missing (facilitator settled, reply lost) is not a
// replay: the chain is asked (reconcile.ts) and the payer gets what they paid for.
import {
  checkPayment,
  FacilitatorProtocolError,
  FacilitatorUnavailableError,
  FacilitatorUnsupportedError,
  NETWORK,
  paymentRequiredBody,
  paymentRequiredV2,
  type Facilitator,
  type PaymentPayload,
  type PaymentRequiredBody,
  type PaymentRequiredV2,
  type PaymentRequirements,
  type PaymentResponse,
} from "../../pay";
import type { Logger } from "../../lib/log";
import type { PaymentLedger, PaymentRow } from "./ledger";
import { decodePresented, isPresented, paymentRequiredHeaders, settlementFor, type PresentedPayment, type X402Version } from "./presented";
import { RailUnconfiguredError, type Rail } from "./rail";
import { createReconciler, type SweepReport } from "./reconcile";

/** validBefore must leave this long for the job and the settlement (the chain checks it at settle). */
export const MIN_REMAINING_SECONDS = 30;

export interface PaidCallInput<T> {
  /** The quote: one `accepts` entry, from Rail.requirements. */
  requirements: PaymentRequirements;
  /** What the payer sent (X-PAYMENT, PAYMENT-SIGNATURE or an MCP `_meta` payload); nothing → payment required. */
  payment: PresentedPayment;
  /** What is sold, recorded for the owner's view of payments. */
  subject?: { brainId?: string; action?: string };
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
  | {
      ok: true;
      status: 200;
      result: T;
      thin: boolean;
      payment: PaymentReceipt;
      headers: Record<string, string>;
      /** The settlement in the payer's dialect (MCP `_meta["x402/payment-response"]`); null when nothing settled. */
      settlement: PaymentResponse | null;
    }
  | {
      ok: false;
      status: 402;
      body: PaymentRequiredReply;
      /** The same terms as x402 v2 (the PAYMENT-REQUIRED header, decoded). */
      v2: PaymentRequiredV2;
      headers: Record<string, string>;
      settlement: PaymentResponse | null;
    }
  | { ok: false; status: 502 | 503; body: { error: { code: string; message: string } }; headers: Record<string, string> };

export interface PaidCallDeps {
  rail: Rail;
  ledger: PaymentLedger;
  log: Logger;
  /** Unix seconds (tests move it). */
  now?: () => number;
}

export type PaidCall = <T>(input: PaidCallInput<T>) => Promise<PaidCallOutcome<T>>;

/** The flow, plus the background pass over payments whose settlement is unknown (reconcile.ts). */
export type PaidCallWithSweep = PaidCall & { sweep: (limit?: number) => Promise<SweepReport> };

/** One payment being served: everything the steps after the local checks need. */
export interface Attempt<T> {
  requirements: PaymentRequirements;
  payload: PaymentPayload;
  payer: string;
  nonce: string;
  version: X402Version;
  run: () => Promise<{ result: T; thin: boolean }>;
}

/** A year: how late a retry may come to collect a payment the chain says was made. */
const ANY_TIME = 365 * 24 * 3600;

export function createPaidCall(deps: PaidCallDeps): PaidCallWithSweep {
  const now = deps.now ?? (() => Date.now() / 1000);
  const { ledger, log } = deps;
  const reconciler = createReconciler({ ...deps, now, verifyRunSettle });

  const paidCall = async function paidCall<T>({ requirements, payment, subject, run }: PaidCallInput<T>): Promise<PaidCallOutcome<T>> {
    // Terms nobody can settle are not offered (a paid brain left over after the facilitator was unset).
    if (!deps.rail.configured) return facilitatorTrouble(new RailUnconfiguredError("no x402 facilitator is configured"), "nothing can be paid here now");
    if (!isPresented(payment)) {
      return paymentRequired(requirements, 1, "payment_required", `Pay ${requirements.maxAmountRequired} atomic units: sign the terms in accepts and retry with X-PAYMENT (x402 v1) or PAYMENT-SIGNATURE (x402 v2)`);
    }
    const decoded = decodePresented(payment, requirements);
    const refuse = (error: string, message: string, payer?: string) => paymentRequired(requirements, decoded.version, error, message, payer);
    if (!decoded.ok) return refuse(decoded.code, decoded.message);
    const payload = decoded.payload;

    // Local checks first: junk never reaches the facilitator, the ledger or the job.
    let local = await checkPayment(payload, requirements, now(), { minRemainingSeconds: MIN_REMAINING_SECONDS });
    let late = false;
    if (!local.ok && local.code === "payment_expired") {
      // Too late to settle, but maybe not too late to collect: a settlement whose reply was lost.
      const signed = await checkPayment(payload, requirements, now(), { minRemainingSeconds: -ANY_TIME });
      if (signed.ok && owed(await ledger.lookup(signed.nonce))) [local, late] = [signed, true];
    }
    if (!local.ok) return refuse(local.code, local.message, payload.payload?.authorization?.from);
    const attempt: Attempt<T> = { requirements, payload, payer: local.payer, nonce: local.nonce, version: decoded.version, run };

    if (!late) {
      let facilitator;
      try {
        facilitator = await deps.rail.facilitator();
      } catch (error) {
        return facilitatorTrouble(error, "nothing was reserved or settled");
      }
      const reserved = await ledger.reserve(local.nonce, local.payer, {
        payTo: requirements.payTo,
        resource: requirements.resource,
        amountAtomic: requirements.maxAmountRequired,
        brainId: subject?.brainId ?? null,
        action: subject?.action ?? null,
        x402Version: decoded.version,
        validBefore: Number(payload.payload.authorization.validBefore),
      });
      if (reserved) return verifyRunSettle(attempt, facilitator, "reserved");
    }
    // The nonce is known: a replay, or a payer back for a payment whose outcome we never learned.
    return reconciler.retry(attempt);
  };
  return Object.assign(paidCall, { sweep: reconciler.sweep });

  /**
   * Verify → run → settle last, for a fresh reservation or a reclaimed `unknown` payment whose nonce the
   * chain says is unused. What a failure does to the row depends on which: a fresh one is released or voided;
   * a reclaimed one goes back to `unknown` (its first settlement may still be pending), for the reconciler.
   */
  async function verifyRunSettle<T>(a: Attempt<T>, facilitator: Facilitator, held: "reserved" | "reconciling"): Promise<PaidCallOutcome<T>> {
    const { requirements, payload, payer, nonce } = a;
    const refuse = (error: string, message: string, settlement: PaymentResponse | null = null) =>
      paymentRequired(requirements, a.version, error, message, payer, settlement);
    const giveBack = () => (held === "reserved" ? ledger.release(nonce) : ledger.unclaim(nonce));

    const verifyStart = performance.now();
    try {
      const verified = await facilitator.verify(payload, requirements);
      if (!verified.isValid) {
        // A reclaimed payment refused now may be refused because its first settlement just landed.
        if (held === "reconciling") {
          const landed = await reconciler.landed(a, verified.invalidReason);
          if (landed) return landed;
        }
        await giveBack();
        return refuse(verified.invalidReason ?? "payment_invalid", `The facilitator refused the payment: ${verified.invalidReason ?? "invalid"}`);
      }
      if (verified.payer && verified.payer.toLowerCase() !== payer.toLowerCase()) {
        await giveBack();
        return refuse("payment_payer_mismatch", "The facilitator saw another payer than the signature");
      }
    } catch (error) {
      await giveBack();
      return facilitatorTrouble(error, "the payment was not used; retry the same header later");
    }
    const verifyMs = performance.now() - verifyStart;

    // From here the job has started: a fresh nonce is never released again, whatever happens.
    let job: { result: T; thin: boolean };
    try {
      job = await a.run();
    } catch (error) {
      if (held === "reserved") await ledger.markVoided(nonce, `job_failed: ${errorText(error)}`.slice(0, 500));
      else await ledger.unclaim(nonce);
      throw error;
    }
    if (job.thin) {
      if (held === "reserved") await ledger.markVoided(nonce, "thin");
      else await ledger.unclaim(nonce); // its first settlement may still land; the reconciler decides
      return { ok: true, status: 200, result: job.result, thin: true, payment: receipt(payer, null, "0", false), headers: {}, settlement: null };
    }

    const settleStart = performance.now();
    let settled;
    try {
      settled = await facilitator.settle(payload, requirements);
    } catch (error) {
      // The transfer may or may not have landed: keep the nonce, withhold the result, say so.
      await ledger.markUnknown(nonce, `settle_unreachable: ${errorText(error)}`.slice(0, 500));
      log.error("x402 settle outcome unknown", { nonce, payer, error: errorText(error) });
      return facilitatorTrouble(error, "the result is withheld; the settlement outcome is unknown: retry the same payment to collect it once it is known");
    }
    const settleMs = performance.now() - settleStart;
    if (!settled.success) {
      if (held === "reconciling") {
        const landed = await reconciler.landed(a, settled.errorReason, job);
        if (landed) return landed;
        await ledger.unclaim(nonce);
      } else {
        await ledger.markVoided(nonce, `settle_failed: ${settled.errorReason ?? "unknown"}`);
      }
      const failed = settlementFor(a.version, { success: false, transaction: settled.transaction, network: NETWORK, payer, errorReason: settled.errorReason ?? "settle_failed" });
      return refuse(settled.errorReason ?? "settle_failed", "Settlement failed after the job: the result is withheld", failed.object);
    }
    log.info("x402 settled", { payer, amount: requirements.maxAmountRequired, tx: settled.transaction, version: a.version, verifyMs: Math.round(verifyMs), settleMs: Math.round(settleMs) });
    return paidResult(ledger, log, a, job, settled.transaction);
  }
}

/** The money moved: record it (whatever the bookkeeping does, the caller gets the result) and answer. */
export async function paidResult<T>(
  ledger: PaymentLedger,
  log: Logger,
  a: Attempt<T>,
  job: { result: T; thin: boolean },
  tx: string | null,
  basis?: string,
): Promise<PaidCallOutcome<T>> {
  await ledger.markSettled(a.nonce, tx, true, basis).catch((error: unknown) => log.error("x402 ledger write failed after settlement", { nonce: a.nonce, tx, error: errorText(error) }));
  const settlement = settlementFor(a.version, { success: true, transaction: tx ?? "", network: NETWORK, payer: a.payer });
  return {
    ok: true,
    status: 200,
    result: job.result,
    thin: job.thin,
    payment: receipt(a.payer, tx, a.requirements.maxAmountRequired, true),
    headers: settlement.headers,
    settlement: settlement.object,
  };
}

/** A row the payer may still be owed something on: settlement unknown, or settled but not delivered. */
export function owed(row: PaymentRow | undefined): boolean {
  if (!row) return false;
  return row.status === "unknown" || row.status === "reconciling" || (row.status === "settled" && row.deliveredAt === null);
}

export function paymentRequired(
  requirements: PaymentRequirements,
  version: X402Version,
  error: string,
  message: string,
  payer?: string,
  settlement: PaymentResponse | null = null,
): Extract<PaidCallOutcome<never>, { status: 402 }> {
  const failed = settlement ? settlementFor(version, settlement).headers : {};
  return {
    ok: false,
    status: 402,
    body: { ...paymentRequiredBody(error, [requirements]), message, ...(payer ? { payer } : {}) },
    v2: paymentRequiredV2(error, [requirements]),
    headers: { ...paymentRequiredHeaders(error, requirements), ...failed },
    settlement,
  };
}

function receipt(payer: string, tx: string | null, amount: string, settled: boolean): PaymentReceipt {
  return { tx_hash: tx, payer, amount, settled, network: NETWORK };
}

/** 503 when the facilitator is unreachable, unconfigured or unsuitable; 502 when it answered nonsense. */
export function facilitatorTrouble(error: unknown, consequence: string): Extract<PaidCallOutcome<never>, { status: 502 | 503 }> {
  if (error instanceof FacilitatorProtocolError) return upstream(502, "facilitator_bad_response", `${error.message}; ${consequence}`);
  if (error instanceof RailUnconfiguredError) return upstream(503, error.code, `${error.message}; ${consequence}`);
  if (error instanceof FacilitatorUnsupportedError) return upstream(503, error.code, `${error.message}; ${consequence}`);
  if (error instanceof FacilitatorUnavailableError) return upstream(503, error.code, `${error.message}; ${consequence}`);
  throw error;
}

export function upstream(status: 502 | 503, code: string, message: string, retryAfter = 30): Extract<PaidCallOutcome<never>, { status: 502 | 503 }> {
  return { ok: false, status, body: { error: { code, message } }, headers: status === 503 ? { "Retry-After": String(retryAfter) } : {} };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
