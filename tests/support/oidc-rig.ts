// A real OpenID provider on loopback: oidc-provider (a certified implementation) behind a small front door.
// The provider does the whole flow (discovery, authorization with PKCE, login, code, token, userinfo, JWKS);
// the person "logs in" through a tiny interaction handler that signs in whoever the test names next.
// The front door only forwards, except where a test asks it to play an attacker or an outage: rewrite the
// id_token of a token answer (re-signed with the provider's own key or a rogue one), hang, or go down.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, decodeProtectedHeader, type JWK, type CryptoKey } from "jose";
import Provider from "oidc-provider";

export interface TestUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

export interface SigningKey {
  kid: string;
  privateJwk: JWK;
  privateKey: CryptoKey;
}

export async function newSigningKey(kid: string): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { kid, privateJwk: { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" }, privateKey };
}

/** What the front door does to the id_token of a token answer: new claims, and the key that signs them. */
export type IdTokenTamper = (claims: Record<string, unknown>) => { claims: Record<string, unknown>; key: SigningKey };

export interface OidcRig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Creates the provider once the relying parties' callback URLs are known. */
  register(...redirectUris: string[]): Promise<void>;
  /** The person the next interaction signs in. */
  users: Map<string, TestUser>;
  nextUser: string;
  /** The provider's signing keys, newest (the one that signs) first. */
  keys: SigningKey[];
  /** A new provider instance signing with `keys` (the old one's JWKS is gone): key rotation. */
  rotate(keys: SigningKey[]): Promise<void>;
  tamper: IdTokenTamper | null;
  /** Replaces the id_token with any string built from its claims (an unsigned token, say). */
  tamperRaw: ((claims: Record<string, unknown>) => string) | null;
  /** `hang`: accept the connection, never answer. */
  mode: "up" | "hang";
  /** Down: nothing listens on the port; up again on the same port. */
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startOidcRig(): Promise<OidcRig> {
  const clientId = "brainbox-test";
  const clientSecret = "a-test-client-secret-that-is-long-enough";
  let provider: any = null;
  let redirects: string[] = [];
  const backend: Server = createServer((req, res) => {
    if (!provider) return void res.writeHead(503).end();
    if (req.url?.startsWith("/interaction/")) return void finishInteraction(req, res).catch((e) => res.writeHead(500).end(String(e)));
    provider.callback()(req, res);
  });
  await new Promise<void>((r) => backend.listen(0, "127.0.0.1", r));
  const backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;

  async function finishInteraction(req: any, res: any) {
    const details = await provider.interactionDetails(req, res);
    const grant = new provider.Grant({ accountId: rig.nextUser, clientId: details.params.client_id });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId: rig.nextUser }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  const build = (keys: SigningKey[]) =>
    new Provider(rig.issuer, {
      clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirects, grant_types: ["authorization_code"], response_types: ["code"] }],
      jwks: { keys: keys.map((k) => k.privateJwk) },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx: unknown, sub: string) => {
        const user = rig.users.get(sub);
        return user ? { accountId: sub, claims: () => ({ ...user }) } : undefined;
      },
      cookies: { keys: ["a-cookie-signing-key-for-the-test-provider"] },
      pkce: { required: () => true },
      ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    });

  const serveFront = (port: number) =>
    Bun.serve({
      port,
      hostname: "127.0.0.1",
      fetch: async (request) => {
        if (rig.mode === "hang") return new Promise<Response>(() => {});
        const url = new URL(request.url);
        const headers = new Headers(request.headers);
        // The provider builds its endpoint URLs from the Host it is asked on: the front door's.
        headers.set("host", url.host);
        const answer = await fetch(backendUrl + url.pathname + url.search, {
          method: request.method,
          headers,
          body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
          redirect: "manual",
        });
        if (url.pathname === "/token" && (rig.tamper || rig.tamperRaw) && answer.ok) return tampered(answer, rig);
        return new Response(answer.body, { status: answer.status, headers: answer.headers });
      },
    });

  let front = serveFront(0);
  const frontPort = front.port!;
  const rig: OidcRig = {
    issuer: `http://127.0.0.1:${frontPort}`,
    clientId,
    clientSecret,
    users: new Map(),
    nextUser: "",
    keys: [await newSigningKey("key-1")],
    tamper: null,
    tamperRaw: null,
    mode: "up",
    async register(...redirectUris) {
      redirects = redirectUris;
      provider = build(rig.keys);
    },
    async rotate(keys) {
      rig.keys = keys;
      provider = build(keys);
    },
    down() {
      front.stop(true);
    },
    up() {
      front = serveFront(frontPort);
    },
    async close() {
      front.stop(true);
      await new Promise<void>((r) => backend.close(() => r()));
    },
  };
  return rig;
}

async function tampered(answer: Response, rig: OidcRig): Promise<Response> {
  const body = (await answer.json()) as Record<string, unknown>;
  const original = String(body.id_token);
  const decoded = decodeJwt(original) as Record<string, unknown>;
  if (rig.tamperRaw) body.id_token = rig.tamperRaw(decoded);
  else {
    const { claims, key } = rig.tamper!(decoded);
    const header = decodeProtectedHeader(original);
    body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: header.alg ?? "RS256", kid: key.kid, typ: header.typ }).sign(key.privateKey);
  }
  return Response.json(body, { headers: { "cache-control": "no-store" } });
}

/** A browser's cookie jar for one origin, kept by hand (name → value). */
export class CookieJar {
  private cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}
