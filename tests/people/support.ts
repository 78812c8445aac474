// People in tests: made through the services (the setup and reset links are tested on their own), signed
// in over real HTTP, cookies carried by hand as a browser would.
import type { RootDb } from "../../src/db/client";
import { createAccount } from "../../src/modules/accounts/service";
import { createApiKey } from "../../src/modules/auth/keys";
import { setPassword } from "../../src/modules/people/passwords";
import type { TestServer } from "../support/server";

export async function newPerson(db: RootDb, email: string, password: string, name = email.split("@")[0]!) {
  const account = await createAccount(db, { name, planId: "pro" });
  await setPassword(db, account.id, password, email);
  const key = (await createApiKey(db, account.id, "test")).key;
  return { id: account.id, key };
}

/** `name=value` of the Set-Cookie answer (what the browser sends back). */
export const cookieOf = (res: Response) => res.headers.get("set-cookie")?.split(";")[0] ?? null;

export function signIn(s: TestServer, email: string, password: string, headers: Record<string, string> = {}) {
  return fetch(`${s.url}/api/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: s.url, ...headers },
    body: JSON.stringify({ email, password }),
  });
}

/** Signs in and answers the cookie pair; fails the test on anything but 201. */
export async function signedIn(s: TestServer, email: string, password: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await signIn(s, email, password, headers);
  if (res.status !== 201) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return cookieOf(res)!;
}

/** A request as the admin page sends it: the cookie, same-origin. */
export function asPage(s: TestServer, path: string, cookie: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  headers.set("cookie", cookie);
  if (!headers.has("origin")) headers.set("origin", s.url);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  return fetch(s.url + path, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
}
