// The owner's view of the x402 ledger: payments for the caller's own brains (and, for an admin account, the
// app actions, which pay the server's BRAINBOX_X402_PAY_TO), newest first, with totals per day or month.
// Ledger states map to what an owner cares about: settled (money moved), zero (thin answer, nothing
// charged), refused (settlement refused or the job failed: nothing moved), unknown (settlement outcome not
// known yet; reconciled from the chain). Reservations still in flight are not shown.
import { and, desc, eq, inArray, isNotNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { brains, payments } from "../../db/schema";
import { invalid } from "../../lib/errors";
import { wholeNumber } from "../../lib/whole-number";
import type { Account } from "../accounts/service";
import { ownedBrain } from "../brains/service";
import { MAX_LIMIT, type OwnerPayment, type OwnerPaymentStatus, type PaymentsPage, type Period, type PeriodTotals } from "./model";

export const DEFAULT_LIMIT = 50;
const MAX_PERIODS = 400;

const statusSql = sql<OwnerPaymentStatus>`case
  when ${payments.status} = 'settled' then 'settled'
  when ${payments.status} = 'voided' and ${payments.reason} = 'thin' then 'zero'
  when ${payments.status} = 'voided' then 'refused'
  else 'unknown' end`;

const statusWhere: Record<OwnerPaymentStatus, SQL> = {
  settled: eq(payments.status, "settled"),
  zero: and(eq(payments.status, "voided"), eq(payments.reason, "thin"))!,
  refused: and(eq(payments.status, "voided"), or(ne(payments.reason, "thin"), sql`${payments.reason} is null`))!,
  unknown: inArray(payments.status, ["unknown", "reconciling"]),
};

export interface PaymentsQuery {
  status?: OwnerPaymentStatus;
  period?: Period;
  limit?: string | number;
  cursor?: string;
}

const parseLimit = (raw: string | number | undefined): number => wholeNumber("limit", raw, 1, MAX_LIMIT) ?? DEFAULT_LIMIT;

/** Every payment the account may see: its brains', plus the app actions' for an admin. */
export async function listAccountPayments(db: RootDb, account: Pick<Account, "id" | "isAdmin">, query: PaymentsQuery): Promise<PaymentsPage> {
  const ownBrains = db.select({ id: brains.id }).from(brains).where(eq(brains.accountId, account.id));
  const scope = account.isAdmin ? or(inArray(payments.brainId, ownBrains), isNotNull(payments.action))! : inArray(payments.brainId, ownBrains);
  return page(db, scope, query);
}

/** One brain's payments (owner only: 404 for a brain the caller cannot see, 403 for someone else's). */
export async function listBrainPayments(db: RootDb, accountId: string, brainId: string, query: PaymentsQuery): Promise<PaymentsPage> {
  await ownedBrain(db, accountId, brainId);
  return page(db, eq(payments.brainId, brainId), query);
}

async function page(db: RootDb, scope: SQL, query: PaymentsQuery): Promise<PaymentsPage> {
  const limit = parseLimit(query.limit);
  const shown = and(scope, ne(payments.status, "reserved"))!;
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const where = and(
    shown,
    query.status ? statusWhere[query.status] : undefined,
    after ? or(lt(payments.createdAt, after.createdAt), and(eq(payments.createdAt, after.createdAt), lt(payments.nonce, after.nonce))) : undefined,
  );
  const rows = await db
    .select({
      nonce: payments.nonce,
      brainId: payments.brainId,
      action: payments.action,
      status: statusSql,
      amount: payments.amountAtomic,
      payer: payments.payer,
      txHash: payments.txHash,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .where(where)
    .orderBy(desc(payments.createdAt), desc(payments.nonce))
    .limit(limit + 1);
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  const list: OwnerPayment[] = items.map((r) => ({
    id: r.nonce,
    brainId: r.brainId,
    action: r.action,
    status: r.status,
    amount: r.amount,
    payer: r.payer,
    txHash: r.txHash || null,
    network: "base",
    createdAt: new Date(r.createdAt).toISOString(),
  }));
  const last = items.at(-1);
  return {
    payments: list,
    // Totals cover the whole scope (every status, every page): the numbers an owner reconciles against.
    totals: await totals(db, shown, query.period ?? "day"),
    nextCursor: more && last ? encodeCursor(last.createdAt, last.nonce) : null,
  };
}

async function totals(db: RootDb, where: SQL, period: Period): Promise<PeriodTotals[]> {
  const format = period === "day" ? "%Y-%m-%d" : "%Y-%m";
  const bucket = sql<string>`strftime(${format}, ${payments.createdAt} / 1000, 'unixepoch')`;
  const count = (s: OwnerPaymentStatus) => sql<number>`sum(case when ${statusSql} = ${s} then 1 else 0 end)`;
  const rows = await db
    .select({
      period: bucket,
      settledCount: count("settled"),
      settledAmount: sql<string>`cast(sum(case when ${statusSql} = 'settled' then cast(${payments.amountAtomic} as integer) else 0 end) as text)`,
      zeroCount: count("zero"),
      refusedCount: count("refused"),
      unknownCount: count("unknown"),
    })
    .from(payments)
    .where(where)
    .groupBy(bucket)
    .orderBy(desc(bucket))
    .limit(MAX_PERIODS);
  return rows.map((r) => ({
    period: r.period,
    settledCount: Number(r.settledCount),
    settledAmount: String(r.settledAmount ?? "0"),
    zeroCount: Number(r.zeroCount),
    refusedCount: Number(r.refusedCount),
    unknownCount: Number(r.unknownCount),
  }));
}

function encodeCursor(createdAt: number, nonce: string): string {
  return Buffer.from(`${createdAt}:${nonce}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: number; nonce: string } {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^(\d{1,16}):(0x[0-9a-f]{64})$/.exec(text);
  if (!match) throw invalid("cursor", "cursor is not a nextCursor from this endpoint");
  return { createdAt: Number(match[1]), nonce: match[2]! };
}
