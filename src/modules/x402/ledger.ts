// The durable nonce ledger of the paid rail, on the `payments` table. Every write is one atomic statement
// (no interactive transaction while serving, src/db/client.ts), so concurrent requests and several
// processes on one database agree: exactly one INSERT wins a nonce, exactly one UPDATE wins a claim.
import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { payments } from "../../db/schema";
import type { NonceLedger } from "../../pay";

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentStatus = PaymentRow["status"];

/** What we record beside the nonce, for reconciliation, the owner's view and support questions. */
export interface ReservationDetails {
  payTo: string;
  resource: string;
  amountAtomic: string;
  brainId?: string | null;
  action?: string | null;
  x402Version?: number;
  validBefore?: number | null;
}

/** A `reconciling` claim older than this is taken to be from a process that died: claimable again. */
export const RECONCILE_LEASE_MS = 5 * 60_000;

// Hex case must not turn the same 32 bytes into a second nonce.
const key = (nonce: string) => nonce.toLowerCase();

export class PaymentLedger implements NonceLedger {
  constructor(private readonly db: RootDb) {}

  /** One winner per nonce, committed before the facilitator is asked and long before the job runs. */
  async reserve(nonce: string, payer: string, details: ReservationDetails = { payTo: "", resource: "", amountAtomic: "0" }): Promise<boolean> {
    const won = await this.db
      .insert(payments)
      .values({ nonce: key(nonce), payer: payer.toLowerCase(), ...details })
      .onConflictDoNothing()
      .returning({ nonce: payments.nonce });
    return won.length === 1;
  }

  /**
   * The transfer landed: the nonce is spent for good. Also resolves an `unknown` or `reconciling` row.
   * `delivered: false` when nobody is waiting for the result (the background reconciler): the payer's
   * retry with the same header then gets it (claimDelivery). `basis` records how a reconciliation knew it
   * landed when the chain was not read (the facilitator's "nonce used"); null for a settlement we saw.
   */
  async markSettled(nonce: string, tx: string | null, delivered = true, basis?: string): Promise<void> {
    const now = Date.now();
    await this.db
      .update(payments)
      .set({ status: "settled", txHash: tx, reason: basis?.slice(0, 500) ?? null, updatedAt: now, deliveredAt: delivered ? now : null })
      .where(and(eq(payments.nonce, key(nonce)), inArray(payments.status, ["reserved", "unknown", "reconciling"])));
  }

  /** Nothing ran (refused by the facilitator, or it was unreachable): the payer may present it again. */
  async release(nonce: string): Promise<void> {
    await this.db.delete(payments).where(and(eq(payments.nonce, key(nonce)), eq(payments.status, "reserved")));
  }

  /**
   * The job ran but nothing will be settled (thin result, failed job, settle refused, expired unsettled).
   * The row stays, so the same header can never buy a second run: whoever saw it cannot spend it here.
   */
  async markVoided(nonce: string, reason: string): Promise<void> {
    await this.db
      .update(payments)
      .set({ status: "voided", reason, updatedAt: Date.now() })
      .where(and(eq(payments.nonce, key(nonce)), inArray(payments.status, ["reserved", "reconciling"])));
  }

  /** Settle's outcome is unknown (facilitator unreachable mid-settle): the transfer may have landed. */
  async markUnknown(nonce: string, reason: string): Promise<void> {
    await this.db
      .update(payments)
      .set({ status: "unknown", reason, updatedAt: Date.now() })
      .where(and(eq(payments.nonce, key(nonce)), inArray(payments.status, ["reserved", "reconciling"])));
  }

  /** Hands a claimed row back as `unknown`, keeping its reason (a reconciliation that could not conclude). */
  async unclaim(nonce: string): Promise<void> {
    await this.db
      .update(payments)
      .set({ status: "unknown", updatedAt: Date.now() })
      .where(and(eq(payments.nonce, key(nonce)), eq(payments.status, "reconciling")));
  }

  /**
   * Claims an `unknown` row (or a `reconciling` one whose claimer died) for reconciliation: one winner
   * among concurrent retries and replicas. Returns the row, or undefined if someone else holds it.
   */
  async claimForReconcile(nonce: string, now = Date.now()): Promise<PaymentRow | undefined> {
    const [row] = await this.db
      .update(payments)
      .set({ status: "reconciling", updatedAt: now })
      .where(and(eq(payments.nonce, key(nonce)), claimable(now)))
      .returning();
    return row;
  }

  /** Claims delivery of a settled-but-undelivered result (reconciled in the background). */
  async claimDelivery(nonce: string): Promise<PaymentRow | undefined> {
    const [row] = await this.db
      .update(payments)
      .set({ deliveredAt: Date.now() })
      .where(and(eq(payments.nonce, key(nonce)), eq(payments.status, "settled"), isNull(payments.deliveredAt)))
      .returning();
    return row;
  }

  /** The job failed after a delivery claim: the paid result is still owed. */
  async unclaimDelivery(nonce: string): Promise<void> {
    await this.db.update(payments).set({ deliveredAt: null }).where(and(eq(payments.nonce, key(nonce)), eq(payments.status, "settled")));
  }

  /** Rows the background reconciler should look at, oldest first. */
  async reconcilable(limit: number, now = Date.now()): Promise<PaymentRow[]> {
    return this.db.select().from(payments).where(claimable(now)).orderBy(payments.updatedAt).limit(limit);
  }

  async lookup(nonce: string): Promise<PaymentRow | undefined> {
    return this.db.query.payments.findFirst({ where: eq(payments.nonce, key(nonce)) });
  }
}

const claimable = (now: number) =>
  or(eq(payments.status, "unknown"), and(eq(payments.status, "reconciling"), lt(payments.updatedAt, now - RECONCILE_LEASE_MS)));
