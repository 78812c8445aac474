// The installation's first owner: created on first start (or by `keys create`) in one write transaction,
// so a server and a CLI command racing on a brand-new data dir still make exactly one owner.
import type { PlanId } from "../../config";
import type { RootDb } from "../../db/client";
import { createApiKey, type NewApiKey } from "../auth/keys";
import { countAccounts, createAccount, findOwner, type Account } from "./service";

/** Creates the owner and its first key when the database has no account yet. */
export async function bootstrapOwner(db: RootDb, plan: PlanId): Promise<{ owner: Account; firstKey?: NewApiKey }> {
  return db.transaction(async (tx) => {
    const existing = await findOwner(tx);
    if (existing) return { owner: existing };
    if ((await countAccounts(tx)) > 0) throw new Error("Accounts exist but none is an owner");
    const owner = await createAccount(tx, { name: "Owner", planId: plan, isAdmin: true });
    return { owner, firstKey: await createApiKey(tx, owner.id, "Owner key (first start)") };
  });
}

/** A new key for the owner, creating the owner on an empty database (CLI `keys create`). */
export async function createOwnerKey(db: RootDb, plan: PlanId, name: string): Promise<NewApiKey> {
  return db.transaction(async (tx) => {
    const owner = (await findOwner(tx)) ?? (await createAccount(tx, { name: "Owner", planId: plan, isAdmin: true }));
    return createApiKey(tx, owner.id, name);
  });
}
