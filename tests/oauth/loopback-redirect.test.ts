// RFC 8252 §7.3: a native client registered with a loopback redirect URI may come back on any port (VS Code
// does when its port is busy); host, path and query still match exactly, and other redirect URIs stay exact.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { redirectUriMatches } from "../../src/modules/oauth/redirect-uris";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { approve, MemoryOAuthProvider, pkcePair, postForm } from "./support";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
});
afterAll(() => s?.close());

async function register(redirectUris: string[]): Promise<string> {
  const res = await fetch(`${s.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Native app", redirect_uris: redirectUris, token_endpoint_auth_method: "none" }),
  });
  return (await expectJson(res, 201)).client_id;
}

function authorizeUrl(clientId: string, redirectUri: string, challenge: string): URL {
  const url = new URL(`${s.url}/oauth/authorize`);
  const params = { response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "st" };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

describe("loopback redirect URIs on any port (RFC 8252 §7.3)", () => {
  test("registered on 33418, back on another port: consent, code and token all work on the new port", async () => {
    const clientId = await register(["http://127.0.0.1:33418/"]);
    const { verifier, challenge } = pkcePair();
    const moved = "http://127.0.0.1:51234/";
    const back = await approve(s.url, authorizeUrl(clientId, moved, challenge), s.key);
    expect(back.origin + back.pathname).toBe("http://127.0.0.1:51234/");
    const code = back.searchParams.get("code")!;
    // The token request names the redirect URI of the authorization request (the new port).
    const wrongPort = await postForm(s.url, "/oauth/token", { grant_type: "authorization_code", code, redirect_uri: "http://127.0.0.1:33418/", code_verifier: verifier, client_id: clientId });
    expect((await expectJson(wrongPort, 400)).error).toBe("invalid_grant");
    const back2 = await approve(s.url, authorizeUrl(clientId, moved, challenge), s.key);
    const tokens = await postForm(s.url, "/oauth/token", { grant_type: "authorization_code", code: back2.searchParams.get("code")!, redirect_uri: moved, code_verifier: verifier, client_id: clientId });
    expect((await expectJson(tokens, 200)).access_token).toMatch(/^bb_at_/);
  });

  test("[::1] and localhost: any port, same host, same path and query", async () => {
    const clientId = await register(["http://[::1]:8080/cb?app=1", "http://localhost/callback"]);
    const { challenge } = pkcePair();
    for (const ok of ["http://[::1]:9/cb?app=1", "http://[::1]/cb?app=1", "http://localhost:61000/callback", "http://localhost/callback"]) {
      const res = await fetch(authorizeUrl(clientId, ok, challenge), { redirect: "manual" });
      expect({ ok, status: res.status }).toEqual({ ok, status: 200 });
    }
    for (const bad of [
      "http://[::1]:9/cb", // query differs
      "http://[::1]:9/cb?app=2",
      "http://[::1]:9/other?app=1", // path differs
      "http://127.0.0.1:9/cb?app=1", // another loopback host is another URI
      "http://localhost:61000/callback/",
      "http://127.0.0.1:61000/callback",
      "https://localhost:61000/callback", // scheme differs
      "http://user@localhost:61000/callback",
    ]) {
      const res = await fetch(authorizeUrl(clientId, bad, challenge), { redirect: "manual" });
      expect({ bad, status: res.status, location: res.headers.get("location") }).toEqual({ bad, status: 400, location: null });
    }
  });

  test("non-loopback redirect URIs stay exact: another port, path or host is refused as a page", async () => {
    const clientId = await register(["https://app.example:8443/cb", "com.example.app:/oauth"]);
    const { challenge } = pkcePair();
    expect((await fetch(authorizeUrl(clientId, "https://app.example:8443/cb", challenge))).status).toBe(200);
    expect((await fetch(authorizeUrl(clientId, "com.example.app:/oauth", challenge))).status).toBe(200);
    for (const bad of ["https://app.example:9443/cb", "https://app.example/cb", "https://app.example:8443/cb/", "com.example.app:/other", "http://app.example:8443/cb"]) {
      const res = await fetch(authorizeUrl(clientId, bad, challenge), { redirect: "manual" });
      expect({ bad, status: res.status, location: res.headers.get("location") }).toEqual({ bad, status: 400, location: null });
    }
  });

  test("the matcher itself: loopback only for http, ports only", () => {
    expect(redirectUriMatches(["http://127.0.0.1:33418/"], "http://127.0.0.1:1/")).toBe(true);
    expect(redirectUriMatches(["http://127.0.0.1:33418/"], "http://127.0.0.1:1/#x")).toBe(false);
    expect(redirectUriMatches(["http://127.0.0.1:33418/"], "http://127.0.0.2:1/")).toBe(false);
    expect(redirectUriMatches(["http://127.0.0.1:33418/"], "not a url")).toBe(false);
    expect(redirectUriMatches(["https://127.0.0.1:33418/"], "https://127.0.0.1:1/")).toBe(false);
    expect(redirectUriMatches(["http://10.0.0.1:33418/"], "http://10.0.0.1:1/")).toBe(false);
  });

  test("the MCP SDK client registered on one loopback port finishes on another", async () => {
    // The host registered 33418 earlier; this time that port was busy and it listens on 33419.
    const first = new MemoryOAuthProvider("http://127.0.0.1:33418/");
    const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: first });
    await expect(new Client({ name: "vscode-like", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const moved = new MemoryOAuthProvider("http://127.0.0.1:33419/");
    moved.client = first.client; // the stored registration, reused
    const retry = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: moved });
    await expect(new Client({ name: "vscode-like", version: "1" }).connect(retry)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(moved.authorizationUrl!.searchParams.get("redirect_uri")).toBe("http://127.0.0.1:33419/");
    const back = await approve(s.url, moved.authorizationUrl!, s.key);
    expect(back.origin).toBe("http://127.0.0.1:33419");
    await retry.finishAuth(back.searchParams.get("code")!);
    const client = new Client({ name: "vscode-like", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: moved }));
    const listed = (await client.callTool({ name: "list_brains", arguments: {} })) as { isError?: boolean };
    expect(listed.isError).toBeFalsy();
    await client.close();
  });
});
