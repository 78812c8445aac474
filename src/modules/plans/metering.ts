// Question metering. Spending is ONE conditional upsert per question, so 50 parallel asks against 10
// remaining questions let exactly 10 through and a counter never passes its limit. A failed answer (an
// error, not a thin one) gives its question back; a thin answer counts, since the work was done.
import { sql } from "drizzle-orm";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import type { Account } from "../accounts/service";
import { periodBounds, planLimits, type Period } from "./limits";

type Counter = "bank" | "quota" | "daily";

export interface QuotaView {
  limit: number;
  used: number;
  remaining: number;
  period: Period | "lifetime";
  /** When the counter starts again (null for the lifetime bank). */
  resetsAt: string | null;
}

interface Slot {
  counter: Counter;
  periodStart: number;
  limit: number;
  period: Period | "lifetime";
  resetsAt: number | null;
}

function slot(config: Config, account: Account, counter: Counter, now = new Date()): Slot {
  const limits = planLimits(config, account.planId as never);
  if (counter === "bank") return { counter, periodStart: 0, limit: limits.bank, period: "lifetime", resetsAt: null };
  const period: Period = counter === "daily" ? "day" : limits.period;
  const { start, end } = periodBounds(period, now);
  return { counter, periodStart: start, limit: counter === "daily" ? limits.daily : limits.quota, period, resetsAt: end };
}

const view = (s: Slot, used: number): QuotaView => ({
  limit: s.limit,
  used: Math.min(used, s.limit),
  remaining: Math.max(s.limit - used, 0),
  period: s.period,
  resetsAt: s.resetsAt === null ? null : new Date(s.resetsAt).toISOString(),
});

/**
 * Whose counter a question spends: the account's own, or (issue 56) the team's when the account is a member
 * of a team on the Team plan (the one it joined first), so every member spends the one team quota.
 */
type Holder = { kind: "account" | "team"; id: string };
const COUNTERS = {
  account: { table: sql.raw(`"usage_counters"`), key: sql.raw(`account_id`) },
  team: { table: sql.raw(`"team_usage_counters"`), key: sql.raw(`team_id`) },
};

async function usedOf(db: Db, holder: Holder | string, s: Slot): Promise<number> {
  const h = typeof holder === "string" ? ({ kind: "account", id: holder } as Holder) : holder;
  const { table, key } = COUNTERS[h.kind];
  const [row] = await db.all<{ used: number }>(
    sql`SELECT used FROM ${table} WHERE ${key} = ${h.id} AND counter = ${s.counter} AND period_start = ${s.periodStart}`,
  );
  return row ? Number(row.used) : 0;
}

/** Spends one question from the slot; null when none is left. */
async function spend(db: Db, holder: Holder | string, s: Slot): Promise<number | null> {
  if (s.limit <= 0) return null;
  const h = typeof holder === "string" ? ({ kind: "account", id: holder } as Holder) : holder;
  const { table, key } = COUNTERS[h.kind];
  const rows = await db.all<{ used: number }>(sql`
    INSERT INTO ${table} (${key}, counter, period_start, used) VALUES (${h.id}, ${s.counter}, ${s.periodStart}, 1)
    ON CONFLICT (${key}, counter, period_start) DO UPDATE SET used = used + 1 WHERE used < ${s.limit}
    RETURNING used`);
  return rows[0] ? Number(rows[0].used) : null;
}

async function giveBack(db: Db, holder: Holder | string, s: Slot): Promise<void> {
  const h = typeof holder === "string" ? ({ kind: "account", id: holder } as Holder) : holder;
  const { table, key } = COUNTERS[h.kind];
  await db.run(sql`UPDATE ${table} SET used = used - 1
    WHERE ${key} = ${h.id} AND counter = ${s.counter} AND period_start = ${s.periodStart} AND used > 0`);
}

/** The Team-plan team whose quota the account's questions spend, if any. */
async function quotaTeam(db: Db, accountId: string): Promise<string | null> {
  const [row] = await db.all<{ team_id: string }>(sql`SELECT m.team_id FROM "team_members" m JOIN "teams" t ON t.id = m.team_id
    WHERE m.account_id = ${accountId} AND t.plan_id = 'team' ORDER BY m.created_at, m.team_id LIMIT 1`);
  return row?.team_id ?? null;
}

export interface Spent {
  /** Quota object of a Pro/Team account (null on Free, as the contract shows). */
  quota: QuotaView | null;
  /**
   * Questions the plan still allows, always an integer: on Free the lifetime bank left, on Pro/Team the
   * quota left this period (the same as quota.remaining; an unused Free bank means nothing on those plans).
   */
  bank: number;
  /** Gives the question back when the answer failed. */
  refund(): Promise<void>;
}

/** v1 ask and brain-set ask: Free spends its bank (402 when empty), Pro/Team their quota (429 when over). */
export async function spendQuestion(db: Db, config: Config, member: Account): Promise<Spent> {
  const teamId = await quotaTeam(db, member.id);
  // A Team-plan team's member asks on the team's plan, whatever their own account's plan.
  const account: Account = teamId ? { ...member, planId: "team" } : member;
  const holder: Holder = teamId ? { kind: "team", id: teamId } : { kind: "account", id: member.id };
  const limits = planLimits(config, account.planId as never);
  const bankSlot = slot(config, account, "bank");
  if (limits.metering === "bank") {
    const used = await spend(db, account.id, bankSlot);
    if (used === null) {
      const bank = view(bankSlot, await usedOf(db, account.id, bankSlot));
      throw new AppError("bank_exhausted", `The Free plan's question bank is used up (${bank.limit} questions). Upgrade to keep asking.`, { bank });
    }
    return { quota: null, bank: Math.max(bankSlot.limit - used, 0), refund: () => giveBack(db, account.id, bankSlot) };
  }
  const quotaSlot = slot(config, account, "quota");
  const used = await spend(db, holder, quotaSlot);
  if (used === null) {
    const quota = view(quotaSlot, await usedOf(db, holder, quotaSlot));
    throw new AppError("quota_exceeded", `Question quota of ${quota.limit} per ${quota.period} reached; it resets at ${quota.resetsAt}`, {
      quota,
      headers: retryAfter(quotaSlot),
    });
  }
  const quota = view(quotaSlot, used);
  return { quota, bank: quota.remaining, refund: () => giveBack(db, holder, quotaSlot) };
}

/** Unversioned ask: a daily quota for every plan; 429 with the quota object and Retry-After when over. */
export async function spendDailyQuestion(db: Db, config: Config, account: Account): Promise<{ quota: QuotaView; refund(): Promise<void> }> {
  const daily = slot(config, account, "daily");
  const used = await spend(db, account.id, daily);
  if (used === null) {
    const quota = view(daily, await usedOf(db, account.id, daily));
    throw new AppError("quota_exceeded", `Daily question quota of ${quota.limit} reached; it resets at ${quota.resetsAt}`, {
      quota,
      headers: retryAfter(daily),
    });
  }
  return { quota: view(daily, used), refund: () => giveBack(db, account.id, daily) };
}

function retryAfter(s: Slot): Record<string, string> {
  return s.resetsAt === null ? {} : { "retry-after": String(Math.max(1, Math.ceil((s.resetsAt - Date.now()) / 1000))) };
}

/** The account's plan and every counter, for the account endpoint and the admin page. */
export async function usageOf(db: Db, config: Config, member: Account) {
  const teamId = await quotaTeam(db, member.id);
  const account: Account = teamId ? { ...member, planId: "team" } : member;
  const limits = planLimits(config, account.planId as never);
  const [bank, quota, daily] = await Promise.all(
    (["bank", "quota", "daily"] as const).map(async (c) => {
      const s = slot(config, account, c);
      return view(s, await usedOf(db, c === "quota" && teamId ? { kind: "team", id: teamId } : account.id, s));
    }),
  );
  return { plan: limits.plan, metering: limits.metering, brainSets: limits.brainSets, bank: bank!, quota: limits.metering === "quota" ? quota! : null, daily: daily! };
}
