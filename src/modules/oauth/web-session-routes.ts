// POST/DELETE /api/v1/web-session: the admin page hands its sign-in to the browser (an HttpOnly,
// SameSite=Strict cookie) so the OAuth consent page can recognise the owner. Not a brain feature, so no
// unversioned twin; the cookie is read only by the consent page, never by the API.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { createWebSession, revokeWebSession, sessionCookie, sessionSecretFrom, WEB_SESSION_TTL_MS } from "./web-sessions";

export const webSessionRoutes = (ctx: AppContext) => {
  const noContent = (cookie: string) => new Response(null, { status: 204, headers: { "set-cookie": cookie, "cache-control": "no-store" } });
  // Sign-out needs no bearer: the cookie names the session it ends (and a missing one is already signed out).
  const signOut = new Elysia({ detail: { tags: ["API keys"] } }).delete("/api/v1/web-session", async ({ request }) => {
    await revokeWebSession(ctx.db, sessionSecretFrom(request.headers.get("cookie"), ctx.publicUrl()));
    return noContent(sessionCookie(ctx.publicUrl(), "", 0));
  });
  // Sign-in: the bearer (an API key or OAuth access token) opens a 12-hour session held in a cookie.
  const signIn = new Elysia({ detail: { tags: ["API keys"] } })
    .use(authGuard(ctx))
    .post("/api/v1/web-session", async ({ principal, request }) => {
      // Replacing a session: the old one ends, so one browser holds one session.
      await revokeWebSession(ctx.db, sessionSecretFrom(request.headers.get("cookie"), ctx.publicUrl()));
      const { secret } = await createWebSession(ctx.db, principal);
      return noContent(sessionCookie(ctx.publicUrl(), secret, Math.floor(WEB_SESSION_TTL_MS / 1000)));
    });
  return new Elysia().use(signOut).use(signIn);
};
