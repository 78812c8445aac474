// The consent page's view of a person's session (modules/people/sessions.ts: one kind of session for the
// admin page, the API and this page). A signed-in person consents with Allow/Deny and the session's CSRF
// token instead of pasting a key.
import type { AppContext } from "../../context";
import { hmacHex, safeEqual } from "../../lib/secrets";
import type { Account } from "../accounts/service";
import { sessionSecretFrom } from "../people/cookie";
import { resolveSession, sessionPolicy } from "../people/sessions";

export { sessionSecretFrom } from "../people/cookie";

export interface WebSession {
  hash: string;
  account: Account;
  via: string;
}

/** The per-session CSRF token of the consent form: bound to this session, useless without its cookie. */
export const csrfTokenFor = (signingSecret: string, session: WebSession) => hmacHex(signingSecret, `web-session csrf ${session.hash}`);

export function csrfMatches(signingSecret: string, session: WebSession, token: unknown): boolean {
  return typeof token === "string" && safeEqual(token, csrfTokenFor(signingSecret, session));
}

/** The live session of the browser that sent these headers (never one opened by a connector's token). */
export async function resolveWebSession(ctx: AppContext, headers: Headers): Promise<WebSession | null> {
  const session = await resolveSession(ctx.db, sessionPolicy(ctx.config), sessionSecretFrom(headers.get("cookie"), ctx.publicUrl()), ctx.log);
  return session ? { hash: session.hash, account: session.account, via: session.via } : null;
}
