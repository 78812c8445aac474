// A sign-in in progress. The browser holds only a random secret in a short-lived HttpOnly cookie; the state,
// nonce and PKCE verifier stay in the database (any replica can finish the flow), stored under the
// secret's hash and taken exactly once: a replayed callback, or one from another browser, finds nothing.
import { eq, lt } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { ssoFlows } from "../../db/schema";
import { randomBase62, sha256Hex } from "../../lib/secrets";
import { servedOverHttps } from "../people/cookie";

export const FLOW_TTL_MS = 10 * 60_000;
const SECRET = /^[0-9A-Za-z]{43}$/;

export interface Flow {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

export const flowCookieName = (publicUrl: string) => (publicUrl.startsWith("https:") ? "__Host-bb_sso" : "bb_sso");

export function flowCookie(publicUrl: string, value: string, maxAgeSeconds: number, request: Request): string {
  const secure = servedOverHttps(publicUrl, request) ? "; Secure" : "";
  return `${flowCookieName(publicUrl)}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** Stores a new flow; answers the cookie secret that names it. Expired flows are swept here. */
export async function beginFlow(db: RootDb, flow: Flow, now = Date.now()): Promise<string> {
  const secret = randomBase62(43);
  await db.batch([
    db.delete(ssoFlows).where(lt(ssoFlows.expiresAt, now)),
    db.insert(ssoFlows).values({ hash: sha256Hex(secret), ...flow, expiresAt: now + FLOW_TTL_MS }),
  ]);
  return secret;
}

/** Takes (and deletes) the flow named by the request's cookie; null when there is none, or it expired. */
export async function takeFlow(db: RootDb, request: Request, publicUrl: string, now = Date.now()): Promise<Flow | null> {
  const secret = flowSecretFrom(request.headers.get("cookie"), publicUrl);
  if (!secret) return null;
  const [row] = await db.delete(ssoFlows).where(eq(ssoFlows.hash, sha256Hex(secret))).returning();
  if (!row || row.expiresAt <= now) return null;
  return { provider: row.provider, state: row.state, nonce: row.nonce, codeVerifier: row.codeVerifier, returnTo: row.returnTo };
}

function flowSecretFrom(header: string | null, publicUrl: string): string | null {
  if (!header) return null;
  const name = flowCookieName(publicUrl);
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      if (SECRET.test(value)) return value;
    }
  }
  return null;
}

/** A path on this server (never another origin, never `//host`); anything else lands on the admin page. */
export function safeReturnTo(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\") || raw.length > 1000) return "/";
  return raw;
}
