// The plans' meter for the answer routes: v1 asks spend the Free bank or the Pro/Team quota, unversioned
// asks the daily quota. Refusals are AppErrors (402 bank_exhausted, 429 quota_exceeded with the quota).
import type { AppContext } from "../../context";
import type { AskMeter, MeterReading } from "../answer/meter";
import { getAccount } from "../accounts/service";
import { spendDailyQuestion, spendQuestion } from "./metering";

export function planMeter(ctx: AppContext): AskMeter {
  const refunds = new WeakMap<MeterReading, () => Promise<void>>();
  return {
    async admit({ accountId, surface }) {
      const account = await getAccount(ctx.db, accountId);
      if (surface === "unversioned") {
        const spent = await spendDailyQuestion(ctx.db, ctx.config, account);
        const reading: MeterReading = { quota: { ...spent.quota }, bank: null };
        refunds.set(reading, spent.refund);
        return reading;
      }
      const spent = await spendQuestion(ctx.db, ctx.config, account);
      const reading: MeterReading = { quota: spent.quota ? { ...spent.quota } : null, bank: spent.bank };
      refunds.set(reading, spent.refund);
      return reading;
    },
    /** The answer failed with an error: the question is given back. */
    async refund(_ask, reading) {
      await refunds.get(reading)?.();
    },
  };
}
