// People for the teams tests: accounts with an email and an API key, made over the admin HTTP route.
import { expectJson, type TestServer } from "../support/server";

export interface Person {
  id: string;
  key: string;
  email: string;
}

export async function person(s: TestServer, name: string, plan = "pro"): Promise<Person> {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${crypto.randomUUID().slice(0, 6)}@example.test`;
  const body = await expectJson(await s.api("/api/v1/admin/accounts", { method: "POST", json: { name, plan, email } }), 201);
  return { id: body.account.id, key: body.apiKey.key, email };
}

export async function share(s: TestServer, brainId: string, granteeId: string, role: string, kind = "account", key?: string) {
  return expectJson(await s.api(`/api/v1/brains/${brainId}/shares/${kind === "account" ? "accounts" : "teams"}/${granteeId}`, { method: "PUT", json: { role }, key }), 200);
}
