// The MCP SDK client's own OAuth flow against Brainbox, end to end: 401 with resource metadata, discovery,
// dynamic registration, PKCE, the consent page approved with an API key, token exchange, tools called with
// the access token, refresh (by hand and by the transport on an expired token), grants and revocation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { sha256Hex } from "../../src/lib/secrets";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";
import { connectMcp } from "../mcp/support";
import { approve, MemoryOAuthProvider, postForm, REDIRECT_URL } from "./support";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
  brainId = await newBrain(s, "Connected brain");
});
afterAll(() => s?.close());

const mcpUrl = () => new URL(`${s.url}/mcp`);

/** Runs the SDK's flow up to tokens: connect (401 → register → redirect), consent, finishAuth. */
async function authorizeWithSdk(provider: MemoryOAuthProvider, apiKey = s.key) {
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
  await expect(new Client({ name: "connector", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  const back = await approve(s.url, provider.authorizationUrl!, apiKey);
  await transport.finishAuth(back.searchParams.get("code")!);
  return back;
}

async function connectWith(provider: MemoryOAuthProvider) {
  const client = new Client({ name: "connector", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
  return client;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("the SDK client's OAuth flow", () => {
  const provider = new MemoryOAuthProvider();

  test("401 → discovery → registration → PKCE consent → code → tokens", async () => {
    const back = await authorizeWithSdk(provider);
    // Registered dynamically as a public client.
    // Copies: Bun 1.4.5's toMatchObject writes its asymmetric matchers into the object it checks.
    expect(structuredClone(provider.client)).toMatchObject({ client_id: expect.stringMatching(/^cli_/), token_endpoint_auth_method: "none", redirect_uris: [REDIRECT_URL] });
    expect((provider.client as { client_secret?: string }).client_secret).toBeUndefined();
    // The authorization request the SDK built from our metadata.
    const asked = provider.authorizationUrl!;
    expect(asked.origin + asked.pathname).toBe(`${s.url}/oauth/authorize`);
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      response_type: "code",
      code_challenge_method: "S256",
      redirect_uri: REDIRECT_URL,
      resource: `${s.url}/mcp`,
      // What the /mcp 401 challenge names: the scopes the MCP tools need.
      scope: "brains:read ask sources:write",
      state: provider.lastState,
    });
    // The redirect back: exactly the registered URI, with code, state and issuer.
    expect(back.origin + back.pathname).toBe(REDIRECT_URL);
    expect(back.searchParams.get("state")).toBe(provider.lastState);
    expect(back.searchParams.get("iss")).toBe(s.url);
    expect(structuredClone(provider.saved)).toMatchObject({
      access_token: expect.stringMatching(/^bb_at_[0-9A-Za-z]{43}$/),
      refresh_token: expect.stringMatching(/^bb_rt_[0-9A-Za-z]{43}$/),
      token_type: "Bearer",
      expires_in: 3600,
      scope: "brains:read ask sources:write",
    });
    // Only hashes are stored.
    const stored = await s.ctx.database.client.execute("SELECT hash FROM oauth_tokens");
    expect(JSON.stringify(stored.rows)).not.toContain(provider.saved!.access_token);
    expect(stored.rows.map((r) => r.hash)).toContain(sha256Hex(provider.saved!.access_token));
  });

  test("the access token calls the MCP tools and the HTTP endpoints of its scopes, nothing else", async () => {
    const client = await connectWith(provider);
    const listed = (await client.callTool({ name: "list_brains", arguments: {} })) as any;
    expect(listed.structuredContent.brains.map((b: { id: string }) => b.id)).toContain(brainId);
    const added = (await client.callTool({ name: "add_source", arguments: { brainId, kind: "note", title: "Via OAuth", content: "Added by a connector." } })) as any;
    expect(added.structuredContent.created).toBe(true);
    await client.close();

    const token = provider.saved!.access_token;
    await expectJson(await s.api("/api/v1/brains", { key: token }), 200);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { key: token }), 200);
    // Outside the granted scopes (brains:write, account:read): 403 insufficient_scope.
    const create = await s.api("/api/v1/brains", { method: "POST", json: { name: "Made by a connector" }, key: token });
    expect((await expectJson(create, 403)).error).toMatchObject({ code: "insufficient_scope", required: "brains:write" });
    expect((await expectJson(await s.api("/api/v1/account", { key: token }), 403)).error.required).toBe("account:read");
  });

  test("refresh rotates both tokens; a replayed refresh token ends the whole grant", async () => {
    const first = provider.saved!;
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe("AUTHORIZED");
    const second = provider.saved!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    await expectJson(await s.api("/api/v1/brains", { key: second.access_token }), 200);

    const replay = await postForm(s.url, "/oauth/token", { grant_type: "refresh_token", refresh_token: first.refresh_token!, client_id: provider.client!.client_id });
    expect(await expectJson(replay, 400)).toMatchObject({ error: "invalid_grant" });
    // Someone else held a copy: every token of the grant is dead now, the newest included.
    expect((await s.api("/api/v1/brains", { key: second.access_token })).status).toBe(401);
    const refreshAgain = await postForm(s.url, "/oauth/token", { grant_type: "refresh_token", refresh_token: second.refresh_token!, client_id: provider.client!.client_id });
    expect((await refreshAgain.json()).error).toBe("invalid_grant");
  });
});

describe("an expiring access token", () => {
  test("expired → 401 with invalid_token; the SDK transport refreshes on its own and retries", async () => {
    const provider = new MemoryOAuthProvider();
    await authorizeWithSdk(provider);
    const client = await connectWith(provider);
    const old = provider.saved!.access_token;
    await s.ctx.database.client.execute({ sql: "UPDATE oauth_tokens SET expires_at = ? WHERE hash = ?", args: [Date.now() - 1, sha256Hex(old)] });

    expect((await s.api("/api/v1/brains", { key: old })).status).toBe(401);
    const raw = await fetch(`${s.url}/mcp`, { method: "POST", headers: { ...bearer(old), "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("www-authenticate")).toContain('error="invalid_token"');

    const listed = (await client.callTool({ name: "list_brains", arguments: {} })) as any;
    expect(listed.isError).toBeFalsy();
    expect(provider.saved!.access_token).not.toBe(old);
    await client.close();
  });
});

describe("connected applications (grants)", () => {
  test("listed for the owner, revocable; revoked tokens answer 401 everywhere", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT_URL, { client_name: "Revocable app", client_uri: "https://app.example" });
    await authorizeWithSdk(provider);
    const token = provider.saved!.access_token;
    await expectJson(await s.api("/api/v1/brains", { key: token }), 200);

    const { grants } = await expectJson(await s.api("/api/user/oauth-grants"), 200);
    const grant = grants.find((g: any) => g.client.name === "Revocable app");
    expect(structuredClone(grant)).toMatchObject({
      id: expect.stringMatching(/^grt_/),
      client: { id: provider.client!.client_id, name: "Revocable app", uri: "https://app.example" },
      scope: "brains:read ask sources:write",
      resource: `${s.url}/mcp`,
      revokedAt: null,
    });
    expect(grant.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(grants)).not.toContain(token);

    // Another account neither sees nor revokes it.
    const otherKey = await newAccountKey(s.ctx.db, "Other");
    expect((await expectJson(await s.api("/api/user/oauth-grants", { key: otherKey }), 200)).grants).toEqual([]);
    await expectJson(await s.api(`/api/user/oauth-grants/${grant.id}`, { method: "DELETE", key: otherKey }), 404);
    await expectJson(await s.api("/api/v1/brains", { key: token }), 200);

    expect((await s.api(`/api/user/oauth-grants/${grant.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await s.api("/api/v1/brains", { key: token })).status).toBe(401);
    const viaMcp = await fetch(`${s.url}/mcp`, { method: "POST", headers: { ...bearer(token), "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(viaMcp.status).toBe(401);
    const refresh = await postForm(s.url, "/oauth/token", { grant_type: "refresh_token", refresh_token: provider.saved!.refresh_token!, client_id: provider.client!.client_id });
    expect((await refresh.json()).error).toBe("invalid_grant");
    const after = (await expectJson(await s.api("/api/user/oauth-grants"), 200)).grants.find((g: any) => g.id === grant.id);
    expect(after.revokedAt).not.toBeNull();
    expect((await s.api(`/api/user/oauth-grants/${grant.id}`, { method: "DELETE" })).status).toBe(204);
    await expectJson(await s.api("/api/user/oauth-grants/grt_doesnotexist0000", { method: "DELETE" }), 404);
  });

  test("a confidential client (client_secret_basic) through the same SDK flow, then RFC 7009 revocation", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT_URL, { token_endpoint_auth_method: "client_secret_basic" });
    await authorizeWithSdk(provider);
    const secret = (provider.client as { client_secret?: string }).client_secret!;
    expect(secret).toMatch(/^bb_cs_/);
    const token = provider.saved!.access_token;
    const basic = { authorization: `Basic ${btoa(`${provider.client!.client_id}:${secret}`)}` };
    // A wrong secret is invalid_client (401), and revokes nothing.
    const wrong = await postForm(s.url, "/oauth/revoke", { token }, { authorization: `Basic ${btoa(`${provider.client!.client_id}:nope`)}` });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error).toBe("invalid_client");
    await expectJson(await s.api("/api/v1/brains", { key: token }), 200);
    // Revoking the access token ends only it; revoking the refresh token ends the grant.
    expect((await postForm(s.url, "/oauth/revoke", { token, token_type_hint: "access_token" }, basic)).status).toBe(200);
    expect((await s.api("/api/v1/brains", { key: token })).status).toBe(401);
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe("AUTHORIZED");
    const fresh = provider.saved!;
    await expectJson(await s.api("/api/v1/brains", { key: fresh.access_token }), 200);
    expect((await postForm(s.url, "/oauth/revoke", { token: fresh.refresh_token! }, basic)).status).toBe(200);
    expect((await s.api("/api/v1/brains", { key: fresh.access_token })).status).toBe(401);
    // Unknown tokens are not an error (RFC 7009 §2.2).
    expect((await postForm(s.url, "/oauth/revoke", { token: "bb_at_unknown" }, basic)).status).toBe(200);
  });

  test("a token of another owner: their private brain is 404 over HTTP and not_found over MCP", async () => {
    const otherKey = await newAccountKey(s.ctx.db, "Second owner");
    const theirs = await newBrain(s, "Their secret brain", otherKey);
    const provider = new MemoryOAuthProvider();
    await authorizeWithSdk(provider, otherKey);
    const token = provider.saved!.access_token;
    await expectJson(await s.api(`/api/v1/brains/${theirs}`, { key: token }), 200);
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}`, { key: token }), 404)).error.code).toBe("not_found");
    const session = await connectMcp(s.url, token);
    const r = await session.call("ask_brain", { brainId, question: "What is in there?" });
    expect(r.structuredContent.error).toEqual({ code: "not_found", message: "Brain not found" });
    expect((await session.call("list_brains", {})).structuredContent.brains.map((b: { id: string }) => b.id)).toEqual([theirs]);
    await session.close();
  });
});
