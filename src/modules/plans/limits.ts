// Plan numbers come from configuration (plans themselves are rows of the `plans` table).
import type { Config, PlanId } from "../../config";

export type Period = "day" | "week" | "month";

export interface PlanLimits {
  plan: PlanId;
  /** Free spends a lifetime bank on v1 ask; Pro and Team a quota per period. */
  metering: "bank" | "quota";
  bank: number;
  quota: number;
  period: Period;
  /** Unversioned ask, per UTC day, every plan. */
  daily: number;
  /** Brain-set ask is a Pro/Team feature. */
  brainSets: boolean;
}

export function planLimits(config: Config, plan: PlanId): PlanLimits {
  const paid = plan !== "free";
  return {
    plan,
    metering: paid ? "quota" : "bank",
    bank: config.freeBank,
    quota: plan === "team" ? config.teamQuota : plan === "pro" ? config.proQuota : 0,
    period: config.quotaPeriod,
    daily: config.dailyQuota,
    brainSets: paid,
  };
}

/** Start of the period containing `now` (UTC), and the start of the next one. */
export function periodBounds(period: Period, now = new Date()): { start: number; end: number } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  switch (period) {
    case "day":
      return { start: Date.UTC(y, m, d), end: Date.UTC(y, m, d + 1) };
    case "week": {
      const monday = d - ((now.getUTCDay() + 6) % 7); // ISO weeks start on Monday
      return { start: Date.UTC(y, m, monday), end: Date.UTC(y, m, monday + 7) };
    }
    case "month":
      return { start: Date.UTC(y, m, 1), end: Date.UTC(y, m + 1, 1) };
  }
}
