// The durable nonce ledger of the paid rail, on the `payments` table. Every write is one atomic statement
// (no interactive transaction while serving, src/db/client.ts), so concurrent requests and several
// processes on one database agree: exactly one INSERT wins a nonce.
import { and, eq, inArray } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { payments } from "../../db/schema";
import type { NonceLedger } from "../../pay";

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentStatus = PaymentRow["status"];

/** What we record beside the nonce, for reconciliation and support questions. */
export interface ReservationDetails {
  payTo: string;
  resource: string;
  amountAtomic: string;
}

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

  /** The transfer landed: the nonce is spent for good. Also resolves an `unknown` row after reconciliation. */
  async markSettled(nonce: string, tx: string): Promise<void> {
    await this.db
      .update(payments)
      .set({ status: "settled", txHash: tx, reason: null, updatedAt: Date.now() })
      .where(and(eq(payments.nonce, key(nonce)), inArray(payments.status, ["reserved", "unknown"])));
  }

  /** Nothing ran (refused by the facilitator, or it was unreachable): the payer may present it again. */
  async release(nonce: string): Promise<void> {
    await this.db.delete(payments).where(and(eq(payments.nonce, key(nonce)), eq(payments.status, "reserved")));
  }

  /**
   * The job ran but nothing will be settled (thin result, failed job, settle refused). The row stays, so
   * the same header can never buy a second run: whoever saw it (a proxy, a log) cannot spend it here.
   */
  async markVoided(nonce: string, reason: string): Promise<void> {
    await this.db
      .update(payments)
      .set({ status: "voided", reason, updatedAt: Date.now() })
      .where(and(eq(payments.nonce, key(nonce)), eq(payments.status, "reserved")));
  }

  /** Settle's outcome is unknown (facilitator unreachable mid-settle): the transfer may have landed. */
  async markUnknown(nonce: string, reason: string): Promise<void> {
    await this.db
      .update(payments)
      .set({ status: "unknown", reason, updatedAt: Date.now() })
      .where(and(eq(payments.nonce, key(nonce)), eq(payments.status, "reserved")));
  }

  async lookup(nonce: string): Promise<PaymentRow | undefined> {
    return this.db.query.payments.findFirst({ where: eq(payments.nonce, key(nonce)) });
  }
}
