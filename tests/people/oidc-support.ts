// Single sign-on as a browser does it, by hand: Brainbox's start link, the provider's redirects (its own
// cookies), back to Brainbox's callback (Brainbox's cookies). Hooks let a test play the attacker: change
// the authorization request before the provider sees it, or the callback before Brainbox does.
import { CookieJar, startOidcRig, type OidcRig, type TestUser } from "../support/oidc-rig";
import { NO_SOURCES, startTestServer, type TestServer } from "../support/server";

export interface SignOnOptions {
  /** Brainbox's cookies (a browser's jar for this server); a fresh one by default. */
  jar?: CookieJar;
  /** Rewrites the provider's authorization URL (the browser's first hop). */
  editAuthorization?: (url: URL) => void;
  /** Rewrites the callback URL the provider answered, before Brainbox sees it. */
  editCallback?: (url: URL) => void;
  accept?: string;
}

export interface SignOnResult {
  /** Brainbox's answer at the callback (or at the start, when the start did not redirect). */
  res: Response;
  jar: CookieJar;
  callbackUrl: string | null;
}

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

export async function signOn(s: TestServer, rig: OidcRig, user: TestUser, options: SignOnOptions = {}): Promise<SignOnResult> {
  rig.users.set(user.sub, user);
  rig.nextUser = user.sub;
  const jar = options.jar ?? new CookieJar();
  const accept = options.accept ?? BROWSER_ACCEPT;
  const start = await fetch(`${s.url}/auth/oidc/start`, { redirect: "manual", headers: { cookie: jar.header(), accept } });
  jar.take(start);
  if (start.status !== 303) return { res: start, jar, callbackUrl: null };
  const authorization = new URL(start.headers.get("location")!);
  options.editAuthorization?.(authorization);
  const callback = await followProvider(rig, authorization.href, s.url);
  options.editCallback?.(callback);
  const res = await fetch(callback, { redirect: "manual", headers: { cookie: jar.header(), accept } });
  jar.take(res);
  return { res, jar, callbackUrl: callback.href };
}

/** The provider's hops (authorize → interaction → resume) until it sends the browser back to `home`. */
export async function followProvider(rig: OidcRig, url: string, home: string): Promise<URL> {
  const providerJar = new CookieJar();
  let next = url;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(next, { redirect: "manual", headers: { cookie: providerJar.header() } });
    providerJar.take(res);
    const location = res.headers.get("location");
    if (!location) throw new Error(`the provider stopped at ${next}: ${res.status} ${await res.text()}`);
    next = new URL(location, next).href;
    if (next.startsWith(home)) return new URL(next);
  }
  throw new Error("the provider never sent the browser back");
}

/** A Brainbox and a provider that knows it as a client. */
export async function startSsoPair(env: Record<string, string> = {}): Promise<{ s: TestServer; rig: OidcRig }> {
  const rig = await startOidcRig();
  const s = await startTestServer({
    ...NO_SOURCES,
    BRAINBOX_OIDC_ISSUER: rig.issuer,
    BRAINBOX_OIDC_CLIENT_ID: rig.clientId,
    BRAINBOX_OIDC_CLIENT_SECRET: rig.clientSecret,
    BRAINBOX_OIDC_NAME: "Loopback ID",
    ...env,
  });
  await rig.register(`${s.url}/auth/oidc/callback`);
  return { s, rig };
}

export const sql = (s: TestServer, q: string, args: (string | number)[] = []) => s.ctx.database.client.execute({ sql: q, args });

/** The newest audit event of an action. */
export async function lastAudit(s: TestServer, action: string) {
  const row = (await sql(s, "SELECT * FROM audit_events WHERE action = ? ORDER BY id DESC LIMIT 1", [action])).rows[0];
  return row ? { ...row, details: JSON.parse(String(row.details ?? "null")) } : undefined;
}

export const countRows = async (s: TestServer, table: string) => Number((await sql(s, `SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

/** The session cookie pair a browser would send (bb_session=...). */
export const sessionCookieOf = (jar: CookieJar) => (jar.get("bb_session") ? `bb_session=${jar.get("bb_session")}` : null);
