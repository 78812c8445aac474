// Which rail asks a brain: a brain the caller may read (own, or public and free) is asked on the account,
// metered; someone else's paid brain goes through the paid rail; anything else is 404, exactly as over HTTP.
import { AppError, notFound } from "../../../lib/errors";
import type { Principal } from "../../auth/keys";
import { readableBrain, type Brain } from "../../brains/service";
import { x402Service, type PaidBrain } from "../../x402";
import type { ToolDeps } from "./deps";

export type AskTarget = { kind: "account"; brain: Brain; principal: Principal } | { kind: "paid"; brain: PaidBrain };

export async function askTarget({ ctx, call }: ToolDeps, brainId: string): Promise<AskTarget> {
  if (call.principal) {
    try {
      return { kind: "account", brain: await readableBrain(ctx.db, call.principal.account.id, brainId), principal: call.principal };
    } catch (error) {
      if (!(error instanceof AppError && error.code === "not_found")) throw error;
    }
  }
  const paid = await x402Service(ctx).findPaidBrain(brainId);
  if (paid) return { kind: "paid", brain: paid };
  throw notFound("Brain");
}
