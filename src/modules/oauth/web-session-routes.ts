// POST/DELETE /api/v1/web-session: the admin page, signed in with an API key, hands that sign-in to the
// browser as the session cookie (modules/people/sessions.ts), so the consent page and the admin page's
// links know the person. The session ends with the key. Not a brain feature, so no unversioned twin.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { clientAddressOf } from "../../http/client-address";
import { recordAudit } from "../audit/record";
import { authGuard } from "../auth/guard";
import { sessionSecretFrom } from "../people/cookie";
import { clearedSessionCookie, closeSession, openSession } from "../people/sessions";

export const webSessionRoutes = (ctx: AppContext) => {
  const noContent = (cookie: string) => new Response(null, { status: 204, headers: { "set-cookie": cookie, "cache-control": "no-store" } });
  // Sign-out needs no bearer: the cookie names the session it ends (and a missing one is already signed out).
  const signOut = new Elysia({ detail: { tags: ["API keys"] } }).delete("/api/v1/web-session", async ({ request }) => {
    const ended = await closeSession(ctx.db, sessionSecretFrom(request.headers.get("cookie"), ctx.publicUrl()));
    if (ended) await recordAudit(ctx.db, { action: "session.signed_out", actorId: ended.accountId, target: { kind: "session", id: ended.id }, ip: clientAddressOf(request) }, ctx.log);
    return noContent(clearedSessionCookie(ctx, request));
  });
  // Sign-in: the owner's API key (a bearer, never the cookie itself) opens a session; the browser's old one ends.
  const signIn = new Elysia({ detail: { tags: ["API keys"] } })
    .use(authGuard(ctx, "owner", { sessions: false }))
    .post("/api/v1/web-session", async ({ principal, request }) => {
      const opened = await openSession(ctx, principal.account.id, request, { method: "api_key", credentialId: principal.credentialId });
      return noContent(opened.setCookie);
    });
  return new Elysia().use(signOut).use(signIn);
};
