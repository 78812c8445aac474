// What each MCP host sends when it connects, replayed over real HTTP: its dynamic registration (redirect
// URIs as the hosts register them), the authorization request on the port it got this time, consent, the
// code exchange with PKCE, then MCP initialize and tools/list with the access token. Redirects are never
// followed (the 303's Location is read), so nothing but the loopback server is contacted. Browser-based
// hosts (MCP Inspector in direct mode) also need CORS on discovery, the token endpoint and /mcp.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { formTokenOf, pkcePair, postConsent, postForm } from "./support";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
});
afterAll(() => s?.close());

interface HostProfile {
  host: string;
  /** What the host registers. */
  metadata: Record<string, unknown>;
  /** The redirect URI of this authorization (a loopback host may be on another port than registered). */
  redirectUri: string;
  /** Tools the host needs to find. */
  needsTools: string[];
}

const PROFILES: HostProfile[] = [
  {
    host: "Claude (claude.ai, Desktop, mobile: custom connector)",
    // Registers as a confidential client (client_secret_post), with both of its callback hosts.
    metadata: {
      client_name: "Claude",
      redirect_uris: ["https://claude.ai/api/mcp/auth_callback", "https://claude.com/api/mcp/auth_callback"],
      token_endpoint_auth_method: "client_secret_post",
      grant_types: ["authorization_code", "refresh_token"],
    },
    redirectUri: "https://claude.ai/api/mcp/auth_callback",
    needsTools: ["list_brains", "ask_brain", "get_context"],
  },
  {
    host: "Claude Code (localhost callback, port picked at run time)",
    metadata: { client_name: "Claude Code", redirect_uris: ["http://localhost:54545/callback"], token_endpoint_auth_method: "none" },
    redirectUri: "http://localhost:61234/callback",
    needsTools: ["list_brains", "ask_brain"],
  },
  {
    host: "ChatGPT (developer mode app / connector, deep research)",
    metadata: { client_name: "ChatGPT", redirect_uris: ["https://chatgpt.com/connector_platform_oauth_redirect"], token_endpoint_auth_method: "none" },
    redirectUri: "https://chatgpt.com/connector_platform_oauth_redirect",
    needsTools: ["search", "fetch"],
  },
  {
    host: "Cursor (private-use scheme callback)",
    metadata: { client_name: "Cursor", redirect_uris: ["cursor://anysphere.cursor-mcp/oauth/callback"], token_endpoint_auth_method: "none" },
    redirectUri: "cursor://anysphere.cursor-mcp/oauth/callback",
    needsTools: ["list_brains", "ask_brain"],
  },
  {
    host: "VS Code (loopback 33418, busy, back on another port)",
    metadata: { client_name: "Visual Studio Code", redirect_uris: ["http://127.0.0.1:33418/", "https://vscode.dev/redirect"], token_endpoint_auth_method: "none" },
    redirectUri: "http://127.0.0.1:40123/",
    needsTools: ["list_brains", "ask_brain"],
  },
  {
    host: "MCP Inspector",
    metadata: { client_name: "MCP Inspector", redirect_uris: ["http://localhost:6274/oauth/callback", "http://localhost:6274/oauth/callback/debug"], token_endpoint_auth_method: "none" },
    redirectUri: "http://localhost:6274/oauth/callback",
    needsTools: ["list_brains"],
  },
  {
    host: "mcp-remote (stdio bridge for local-only hosts)",
    // Its port is derived from the server URL; when that one is busy it walks up to the next free one.
    metadata: { client_name: "MCP CLI Proxy", redirect_uris: ["http://localhost:41234/oauth/callback"], token_endpoint_auth_method: "none" },
    redirectUri: "http://localhost:41236/oauth/callback",
    needsTools: ["list_brains", "ask_brain"],
  },
];

async function mcpCall(token: string, id: number, method: string, params: unknown) {
  const res = await fetch(`${s.url}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  return expectJson(res, 200);
}

describe("each host's connection, as it registers and authorizes", () => {
  for (const profile of PROFILES)
    test(profile.host, async () => {
      // 1. The unauthenticated MCP request, whose 401 names the resource metadata; then discovery.
      const first = await fetch(`${s.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
      expect(first.status).toBe(401);
      const resourceMetadata = /resource_metadata="([^"]+)"/.exec(first.headers.get("www-authenticate")!)![1]!;
      const { authorization_servers } = await expectJson(await fetch(resourceMetadata), 200);
      const as = await expectJson(await fetch(`${authorization_servers[0]}/.well-known/oauth-authorization-server`), 200);
      // 2. Dynamic registration.
      const reg = await expectJson(
        await fetch(as.registration_endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(profile.metadata) }),
        201,
      );
      // 3. Authorization (PKCE, resource) → consent → back on the redirect URI with the code.
      const { verifier, challenge } = pkcePair();
      const url = new URL(as.authorization_endpoint);
      const params = { response_type: "code", client_id: reg.client_id, redirect_uri: profile.redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s1", scope: "brainbox", resource: `${s.url}/mcp` };
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const approved = await postConsent(s.url, { form_token: formTokenOf(await page.text()), api_key: s.key, decision: "approve" });
      expect(approved.status).toBe(303);
      const back = new URL(approved.headers.get("location")!);
      expect(back.href.split("?")[0]).toBe(profile.redirectUri);
      expect(back.searchParams.get("iss")).toBe(s.url);
      // 4. The code exchange (with the client secret when the host registered as confidential).
      const secret: Record<string, string> = reg.client_secret ? { client_secret: reg.client_secret } : {};
      const tokens = await expectJson(
        await postForm(s.url, "/oauth/token", { grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: profile.redirectUri, code_verifier: verifier, client_id: reg.client_id, ...secret }),
        200,
      );
      // 5. MCP with the token: initialize, tools/list has what the host needs.
      const init = await mcpCall(tokens.access_token, 1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: profile.host, version: "1" } });
      expect(init.result.serverInfo.name).toBe("brainbox");
      const { result } = await mcpCall(tokens.access_token, 2, "tools/list", {});
      const names = result.tools.map((t: { name: string }) => t.name);
      for (const tool of profile.needsTools) expect(names).toContain(tool);
    });
});

describe("browser-based hosts (MCP Inspector in direct mode)", () => {
  const origin = "http://localhost:6274";

  test("CORS on discovery, registration, token and /mcp, with the MCP headers allowed and exposed", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"]) {
      const res = await fetch(s.url + path, { headers: { origin } });
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
    for (const path of ["/mcp", "/oauth/token", "/oauth/register"]) {
      const preflight = await fetch(s.url + path, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, mcp-protocol-version" },
      });
      expect(preflight.status).toBe(204);
      const allowed = preflight.headers.get("access-control-allow-headers")!;
      for (const header of ["authorization", "content-type", "mcp-protocol-version"]) expect(allowed).toContain(header);
    }
    const unauthorized = await fetch(`${s.url}/mcp`, { method: "POST", headers: { origin, "content-type": "application/json" }, body: "{}" });
    expect(unauthorized.headers.get("access-control-expose-headers")).toContain("www-authenticate");
  });
});
