// Wire shapes of the owner's view of payments (the admin page's table reads exactly these names).
import { t } from "elysia";

export const PAYMENT_STATUSES = ["settled", "refused", "zero", "unknown"] as const;
export type OwnerPaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const PERIODS = ["day", "month"] as const;
export type Period = (typeof PERIODS)[number];

export const MAX_LIMIT = 200;

export const paymentsQuery = t.Object({
  status: t.Optional(t.Union(PAYMENT_STATUSES.map((s) => t.Literal(s)), { description: "settled | refused | zero | unknown" })),
  period: t.Optional(t.Union(PERIODS.map((p) => t.Literal(p)), { description: "Totals per day or per month (UTC), default day" })),
  // Parsed in the service, so a bad value names `limit` in the error.
  limit: t.Optional(t.String({ maxLength: 12, description: `Payments per page, 1..${MAX_LIMIT}, default 50` })),
  cursor: t.Optional(t.String({ maxLength: 200, description: "nextCursor of the previous page" })),
});

// Any id: one the caller cannot reach is the same 404 as a missing brain (see brains/model).
export { brainParams } from "../brains/model";

export interface OwnerPayment {
  /** The authorization nonce (0x, 32 bytes): unique per payment, also what the chain knows it by. */
  id: string;
  brainId: string | null;
  action: string | null;
  status: OwnerPaymentStatus;
  /** The quote the payer signed, atomic units of the asset; money moved only when `settled`. */
  amount: string;
  payer: string;
  txHash: string | null;
  network: "base";
  createdAt: string;
}

export interface PeriodTotals {
  /** "2026-11-22" (day) or "2026-11" (month), UTC. */
  period: string;
  settledCount: number;
  /** Atomic units, decimal string. */
  settledAmount: string;
  zeroCount: number;
  refusedCount: number;
  unknownCount: number;
}

export interface PaymentsPage {
  payments: OwnerPayment[];
  totals: PeriodTotals[];
  nextCursor: string | null;
}
