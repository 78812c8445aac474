// x402 payments (modules/x402, modules/payments): paid brains and every payment's life. Re-exported from schema.ts.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { brains } from "./schema";

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const createdAt = () => integer("created_at").notNull().default(now);
const updatedAt = () => integer("updated_at").notNull().default(now);

/** x402: a public brain whose owner charges per question. A row means paid; deleting it stops charging. */
export const paidBrains = sqliteTable("paid_brains", {
  brainId: text("brain_id")
    .primaryKey()
    .references(() => brains.id, { onDelete: "cascade" }),
  /** Price of one question in atomic units of BRAINBOX_X402_ASSET (USDC: 6 decimals). */
  priceAtomic: integer("price_atomic").notNull(),
  /** Checksummed address receiving the payments. */
  payTo: text("pay_to").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * x402 nonce ledger: one row per EIP-3009 authorization we accepted, inserted (ON CONFLICT DO NOTHING)
 * BEFORE the facilitator verifies it, so one signed header runs at most one job. `reserved` rows whose job
 * never started are deleted; once a job started the row stays: `settled` (tx), `voided` (thin or failed
 * job, settle refused: never runnable again), `unknown` (settle outcome unknown: reconcile on chain),
 * `reconciling` (claimed by one reconciliation: the payer's retry or the background sweep).
 */
export const payments = sqliteTable(
  "payments",
  {
    /** 0x-prefixed lower-case hex of the 32-byte authorization nonce. */
    nonce: text("nonce").primaryKey(),
    payer: text("payer").notNull(),
    payTo: text("pay_to").notNull(),
    resource: text("resource").notNull(),
    /** Decimal string: the signed value, equal to the quote. */
    amountAtomic: text("amount_atomic").notNull(),
    status: text("status", { enum: ["reserved", "settled", "voided", "unknown", "reconciling"] })
      .notNull()
      .default("reserved"),
    txHash: text("tx_hash"),
    reason: text("reason"),
    /** The paid brain asked (HTTP or MCP), or null for an app action. */
    brainId: text("brain_id"),
    /** The app action (`geo/scan`, ...), or null for a brain. */
    action: text("action"),
    /** x402 version the payer spoke (1: X-PAYMENT, 2: PAYMENT-SIGNATURE). */
    x402Version: integer("x402_version").notNull().default(1),
    /** Authorization's validBefore (unix s): past it, an unused authorization can never land. */
    validBefore: integer("valid_before"),
    /** When the result reached the payer; null on a settled row = paid but not delivered yet (reconciled). */
    deliveredAt: integer("delivered_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("payments_payer").on(t.payer),
    index("payments_status").on(t.status),
    index("payments_brain").on(t.brainId, t.createdAt),
    index("payments_action").on(t.action, t.createdAt),
  ],
);
