// Paid brains: an owner makes a brain public and charges per question; the paid rail finds them here.
import { and, asc, eq, sql } from "drizzle-orm";
import { getAddress, isAddress } from "viem";
import type { RootDb } from "../../db/client";
import { brains, paidBrains } from "../../db/schema";
import { AppError, invalid, notFound } from "../../lib/errors";
import { ownedBrain } from "../brains/service";

export interface PaidBrain {
  id: string;
  name: string;
  slug: string;
  emoji: string;
  priceAtomic: bigint;
  payTo: string;
  /** When the terms were last set (ms). */
  updatedAt: number;
}

export interface PaidTerms {
  /** Decimal string or a whole number, atomic units of the asset. */
  priceAtomic: string | number;
  payTo: string;
}

/** Validates terms: an address (checksummed or all one case) and a price in 1..ceiling. */
export function parseTerms(input: PaidTerms, ceiling: bigint): { priceAtomic: bigint; payTo: string } {
  const raw = String(input.priceAtomic).trim();
  if (!/^[1-9][0-9]{0,30}$/.test(raw)) throw invalid("priceAtomic", "priceAtomic must be a positive whole number of atomic units");
  const priceAtomic = BigInt(raw);
  if (priceAtomic > ceiling) throw invalid("priceAtomic", `priceAtomic must not exceed BRAINBOX_X402_MAX_PER_CALL (${ceiling})`);
  // strict: a mixed-case address must carry a valid checksum, so a typo is caught rather than paid to.
  if (!isAddress(input.payTo)) throw invalid("payTo", "payTo must be an EVM address (0x and 40 hex digits, valid checksum if mixed case)");
  return { priceAtomic, payTo: getAddress(input.payTo.toLowerCase()) };
}

export type PaidVisibility = "public" | "private";

/**
 * Sets the terms (owner only) and the visibility the owner chose, in one batch. A private brain is never
 * made public silently: without `visibility` it is refused (`visibility_required`); a public brain stays
 * public. Returns the resulting visibility (a private brain with terms is not sold until made public).
 */
export async function setPaid(
  db: RootDb,
  accountId: string,
  brainId: string,
  terms: { priceAtomic: bigint; payTo: string },
  visibility?: string,
): Promise<PaidVisibility> {
  if (visibility !== undefined && visibility !== "public" && visibility !== "private") {
    throw invalid("visibility", 'visibility must be "public" or "private"');
  }
  const brain = await ownedBrain(db, accountId, brainId);
  if (visibility === undefined && brain.visibility !== "public") {
    throw new AppError(
      "invalid_request",
      'This brain is private: say whether paying makes it public. Send visibility: "public" to sell it on the paid rail, or "private" to keep it private (terms saved, not sold)',
      { field: "visibility", reason: "visibility_required" },
    );
  }
  const resulting: PaidVisibility = (visibility as PaidVisibility | undefined) ?? "public";
  const now = Date.now();
  const price = Number(terms.priceAtomic); // ≤ the ceiling, itself a safe integer
  await db.batch([
    db.update(brains).set({ visibility: resulting, updatedAt: now }).where(eq(brains.id, brainId)),
    db
      .insert(paidBrains)
      .values({ brainId, priceAtomic: price, payTo: terms.payTo })
      .onConflictDoUpdate({ target: paidBrains.brainId, set: { priceAtomic: price, payTo: terms.payTo, updatedAt: now } }),
  ]);
  return resulting;
}

/** Stops charging; the brain keeps its visibility (so a public brain becomes a free public brain). */
export async function clearPaid(db: RootDb, accountId: string, brainId: string): Promise<void> {
  await ownedBrain(db, accountId, brainId);
  await db.delete(paidBrains).where(eq(paidBrains.brainId, brainId));
}

const selection = {
  id: brains.id,
  name: brains.name,
  slug: brains.slug,
  emoji: brains.emoji,
  priceAtomic: paidBrains.priceAtomic,
  payTo: paidBrains.payTo,
  updatedAt: paidBrains.updatedAt,
};

/** Paid terms count only while the brain is public; a private brain with terms is simply not for sale. */
const live = eq(brains.visibility, "public");

/** A public paid brain, or 404 for anything else (private, unpaid, absent): no existence leak. */
export async function requirePaidBrain(db: RootDb, brainId: string): Promise<PaidBrain> {
  const [row] = await db
    .select(selection)
    .from(paidBrains)
    .innerJoin(brains, eq(brains.id, paidBrains.brainId))
    .where(and(eq(paidBrains.brainId, brainId), live));
  if (!row) throw notFound("Brain");
  return { ...row, priceAtomic: BigInt(row.priceAtomic) };
}

/** Every public paid brain, oldest first (the bazaar). */
export async function listPaidBrains(db: RootDb, limit = 1000): Promise<PaidBrain[]> {
  const rows = await db
    .select(selection)
    .from(paidBrains)
    .innerJoin(brains, eq(brains.id, paidBrains.brainId))
    .where(live)
    .orderBy(asc(paidBrains.createdAt), asc(paidBrains.brainId))
    .limit(limit);
  return rows.map((r) => ({ ...r, priceAtomic: BigInt(r.priceAtomic) }));
}

/** Paid brains that exist while no facilitator is configured: a start-up error worth shouting about. */
export async function countPaidBrains(db: RootDb): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(paidBrains);
  return Number(row?.n ?? 0);
}

export const requireFacilitatorForPaid = (configured: boolean) => {
  if (!configured)
    throw new AppError("conflict", "This server has no x402 facilitator: set BRAINBOX_X402_FACILITATOR_URL before charging for a brain");
};
