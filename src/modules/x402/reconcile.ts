// Payments whose settlement went missing (the facilitator settled, its reply was lost): the chain decides.
// The token's authorizationState(payer, nonce) says whether the transfer happened. Used → the payment is
// final: the job runs and the payer gets the result (on their retry with the same payment), recorded
// settled with the tx hash from the AuthorizationUsed log. Unused → verify and settle again while the
// authorization is valid; once it has expired unused, nothing can move any more and the row is voided.
// Every step claims its row with one atomic UPDATE, so concurrent retries and replicas never double-serve.
import { NETWORK, type AuthorizationState, type Facilitator } from "../../pay";
import type { Logger } from "../../lib/log";
import type { PaymentLedger, PaymentRow } from "./ledger";
import {
  errorText,
  facilitatorTrouble,
  MIN_REMAINING_SECONDS,
  paidResult,
  paymentRequired,
  upstream,
  type Attempt,
  type PaidCallOutcome,
} from "./paid-call";
import type { Rail } from "./rail";

export interface ReconcilerDeps {
  rail: Rail;
  ledger: PaymentLedger;
  log: Logger;
  now: () => number;
  verifyRunSettle: <T>(a: Attempt<T>, facilitator: Facilitator, held: "reserved" | "reconciling") => Promise<PaidCallOutcome<T>>;
}

export interface SweepReport {
  checked: number;
  settled: number;
  voided: number;
  pending: number;
  failed: number;
}

export function createReconciler(deps: ReconcilerDeps) {
  const { rail, ledger, log } = deps;

  const replay = <T>(a: Attempt<T>) =>
    paymentRequired(a.requirements, a.version, "payment_replayed", "This authorization (nonce) was already presented; sign a new one", a.payer);

  /** The chain says the payment landed: run the job once and hand over the result; the payment is final. */
  async function deliverLanded<T>(a: Attempt<T>, tx: string | null, done?: { result: T; thin: boolean }, basis?: string): Promise<PaidCallOutcome<T>> {
    let job = done;
    if (!job) {
      try {
        job = await a.run();
      } catch (error) {
        await ledger.markSettled(a.nonce, tx, false, basis); // still owed: the next retry runs it again
        throw error;
      }
    }
    log.info("x402 reconciled: settled, result delivered", { nonce: a.nonce, payer: a.payer, tx, basis: basis ?? "chain" });
    return paidResult(ledger, log, a, job, tx, basis);
  }

  /** Settled in the background while nobody waited: the first retry with the payment collects the result. */
  async function deliverOwed<T>(a: Attempt<T>, row: PaymentRow): Promise<PaidCallOutcome<T>> {
    if (!(await ledger.claimDelivery(a.nonce))) return replay(a);
    let job;
    try {
      job = await a.run();
    } catch (error) {
      await ledger.unclaimDelivery(a.nonce);
      throw error;
    }
    return paidResult(ledger, log, a, job, row.txHash);
  }

  /**
   * After a verify or settle refusal of a reclaimed payment (its row went `unknown` mid-settle, and retry
   * checked it is the same payer, payee, amount and endpoint): did its first settlement land after all?
   * With a chain reader the chain decides, whatever the facilitator said. Without one the facilitator is
   * the only witness: its "nonce already used" for this payer's own authorization means the transfer we
   * sent it landed (a fresh payment never gets here: its refusal releases or voids its own row).
   * Returns null when the refusal stands (the caller hands the row back as `unknown`).
   */
  async function landed<T>(a: Attempt<T>, reason: string | undefined, job?: { result: T; thin: boolean }): Promise<PaidCallOutcome<T> | null> {
    const chain = rail.chain;
    if (!chain) {
      if (!saysNonceUsed(reason)) return null;
      log.warn("x402 reconciled on the facilitator's word: nonce used (no BRAINBOX_X402_RPC_URL to read the chain)", { nonce: a.nonce, payer: a.payer, reason });
      return deliverLanded(a, null, job, `nonce_used_per_facilitator: ${reason}`);
    }
    let state;
    try {
      state = await chain.authorization(rail.asset, a.payer, a.nonce);
    } catch (error) {
      await ledger.unclaim(a.nonce);
      return upstream(503, "chain_unavailable", `Could not read this payment's state on chain (${errorText(error)}); retry the same payment later`);
    }
    if (state.used) return paidHere(state, a) ? deliverLanded(a, state.transaction, job) : spentElsewhere(a, state);
    if (saysNonceUsed(reason)) {
      // The facilitator's node is ahead of ours: the transfer is probably just landing. Ask again soon.
      await ledger.unclaim(a.nonce);
      return upstream(503, "payment_reconciling", "The facilitator reports this payment's nonce used but the chain does not show it yet; retry the same payment in a few seconds", 5);
    }
    return null;
  }

  /** The nonce was used by a transfer that did not pay for this call: nothing was paid here, ever will be. */
  async function spentElsewhere<T>(a: Attempt<T>, state: AuthorizationState): Promise<PaidCallOutcome<T>> {
    await ledger.markVoided(a.nonce, `nonce_spent_elsewhere: ${state.transaction}`);
    log.warn("x402 reconciliation: the nonce paid someone else (a second authorization with the same nonce)", { nonce: a.nonce, payer: a.payer, tx: state.transaction });
    return paymentRequired(
      a.requirements,
      a.version,
      "payment_nonce_spent_elsewhere",
      "This authorization's nonce was used on chain by a transfer that did not pay for this call: nothing was paid here; sign a new one",
      a.payer,
    );
  }

  async function reconcileClaimed<T>(a: Attempt<T>): Promise<PaidCallOutcome<T>> {
    const chain = rail.chain;
    if (chain) {
      let state;
      try {
        state = await chain.authorization(rail.asset, a.payer, a.nonce);
      } catch (error) {
        await ledger.unclaim(a.nonce);
        return upstream(503, "chain_unavailable", `Could not read this payment's state on chain (${errorText(error)}); retry the same payment later`);
      }
      if (state.used) return paidHere(state, a) ? deliverLanded(a, state.transaction) : spentElsewhere(a, state);
      const chainNow = await chain.now().catch(() => Math.floor(deps.now()));
      const validBefore = Number(a.payload.payload.authorization.validBefore);
      if (validBefore <= chainNow) {
        await ledger.markVoided(a.nonce, "expired_unsettled");
        return paymentRequired(a.requirements, a.version, "payment_expired", "This payment was never settled and has expired: nothing moved; sign a new one", a.payer);
      }
      if (validBefore - chainNow < MIN_REMAINING_SECONDS) {
        // Too close to expiry to settle again safely, and the first settlement could still land before it.
        await ledger.unclaim(a.nonce);
        return upstream(503, "payment_reconciling", "This payment's first settlement may still land before it expires; retry the same payment after that", validBefore - chainNow + 2);
      }
    }
    // Unused on chain (or no RPC to ask: the facilitator's verify checks the nonce too): settle again.
    let facilitator;
    try {
      facilitator = await rail.facilitator();
    } catch (error) {
      await ledger.unclaim(a.nonce);
      return facilitatorTrouble(error, "the payment is still unsettled; retry the same payment later");
    }
    return deps.verifyRunSettle(a, facilitator, "reconciling");
  }

  return {
    landed,

    /** The nonce is already in the ledger: a replay, unless we owe the payer for it. */
    async retry<T>(a: Attempt<T>): Promise<PaidCallOutcome<T>> {
      const row = await ledger.lookup(a.nonce);
      if (!row || !sameTerms(row, a)) return replay(a);
      if (row.status === "settled" && row.deliveredAt === null) return deliverOwed(a, row);
      if (row.status !== "unknown" && row.status !== "reconciling") return replay(a);
      if (!(await ledger.claimForReconcile(a.nonce))) {
        return upstream(503, "payment_reconciling", "Another request is settling this payment right now; retry the same payment in a few seconds", 5);
      }
      return reconcileClaimed(a);
    },

    /**
     * Background pass over `unknown` payments (needs BRAINBOX_X402_RPC_URL): used on chain → settled, the
     * result owed to the payer's retry; expired unused → voided (nothing moved, nothing ever will); else left.
     */
    async sweep(limit = 50): Promise<SweepReport> {
      const report: SweepReport = { checked: 0, settled: 0, voided: 0, pending: 0, failed: 0 };
      const chain = rail.chain;
      if (!chain) return report;
      for (const row of await ledger.reconcilable(limit)) {
        if (!(await ledger.claimForReconcile(row.nonce))) continue; // another replica has it
        report.checked++;
        try {
          const state = await chain.authorization(rail.asset, row.payer, row.nonce);
          if (state.used && !paidTo(state, row.payer, row.payTo, row.amountAtomic)) {
            await ledger.markVoided(row.nonce, `nonce_spent_elsewhere: ${state.transaction}`);
            report.voided++;
            log.warn("x402 reconciliation: the nonce paid someone else (a second authorization with the same nonce)", { nonce: row.nonce, payer: row.payer, tx: state.transaction });
            continue;
          }
          if (state.used) {
            await ledger.markSettled(row.nonce, state.transaction, false);
            report.settled++;
            log.info("x402 reconciled in the background: settled on chain", { nonce: row.nonce, payer: row.payer, tx: state.transaction, network: NETWORK });
            continue;
          }
          const chainNow = await chain.now();
          if (row.validBefore !== null && row.validBefore <= chainNow) {
            await ledger.markVoided(row.nonce, "expired_unsettled");
            report.voided++;
          } else {
            await ledger.unclaim(row.nonce);
            report.pending++;
          }
        } catch (error) {
          await ledger.unclaim(row.nonce);
          report.failed++;
          log.warn("x402 reconciliation could not read the chain", { nonce: row.nonce, error: errorText(error) });
        }
      }
      return report;
    },
  };
}

export type Reconciler = ReturnType<typeof createReconciler>;

/**
 * The use the chain records paid this payee this amount from this payer. A use whose transfer the node
 * cannot show (log pruned) counts: the nonce was spent by this payer, and the ledger matched the terms.
 */
function paidTo(state: AuthorizationState, payer: string, payTo: string, amount: string): boolean {
  const t = state.transfer;
  if (!t) return true;
  return t.from.toLowerCase() === payer.toLowerCase() && t.to.toLowerCase() === payTo.toLowerCase() && t.value === BigInt(amount);
}

const paidHere = <T>(state: AuthorizationState, a: Attempt<T>) => paidTo(state, a.payer, a.requirements.payTo, a.requirements.maxAmountRequired);

/**
 * Facilitators' reasons for "this authorization's nonce is already used on chain": @x402/evm's
 * invalid_exact_evm_nonce_already_used, invalid_exact_evm_payload_authorization_nonce_used, and the embedded
 * facilitator's duplicate_settlement (FiatToken's "authorization is used or canceled").
 */
export function saysNonceUsed(reason: string | undefined): boolean {
  return reason !== undefined && /nonce_(already_)?used|duplicate_settlement/i.test(reason);
}

/** The payment presented again is for the same terms it was reserved under (payee, amount, endpoint). */
function sameTerms<T>(row: PaymentRow, a: Attempt<T>): boolean {
  return (
    row.payer === a.payer.toLowerCase() &&
    row.payTo.toLowerCase() === a.requirements.payTo.toLowerCase() &&
    row.amountAtomic === a.requirements.maxAmountRequired &&
    row.resource === a.requirements.resource
  );
}
