// Creates a second account straight through the services (the admin HTTP endpoints are tested elsewhere).
import type { PlanId } from "../../src/config";
import type { RootDb } from "../../src/db/client";
import { createApiKey } from "../../src/modules/auth/keys";
import { createAccount } from "../../src/modules/accounts/service";

export async function newAccountKey(db: RootDb, name = "Other", planId: PlanId = "pro"): Promise<string> {
  const account = await createAccount(db, { name, planId });
  return (await createApiKey(db, account.id, "test")).key;
}
