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

/** An OAuth access token for the account of `apiKey` (register, consent with the key, code → token). */
export async function accessTokenFor(s: TestServer, apiKey: string): Promise<string> {
  const { approve, pkcePair, postForm } = await import("../oauth/support");
  const redirect = "http://127.0.0.1:4321/cb";
  const reg = await fetch(`${s.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "People test app", redirect_uris: [redirect], token_endpoint_auth_method: "none" }),
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const { verifier, challenge } = pkcePair();
  const url = new URL(`${s.url}/oauth/authorize`);
  for (const [k, v] of Object.entries({ response_type: "code", client_id, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: "S256", state: "s", scope: "brains:read ask" })) url.searchParams.set(k, v);
  const back = await approve(s.url, url, apiKey);
  const res = await postForm(s.url, "/oauth/token", { grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: redirect, code_verifier: verifier, client_id });
  return ((await res.json()) as { access_token: string }).access_token;
}
