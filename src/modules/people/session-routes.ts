// A person's session over HTTP: sign in with email and password, who is signed in, sign out, sign out
// everywhere. Not a brain feature, so no unversioned twin.
import { eq } from "drizzle-orm";
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { webSessions } from "../../db/schema";
import { clientAddressOf } from "../../http/client-address";
import { recordAudit } from "../audit/record";
import { authGuard } from "../auth/guard";
import { signInBody } from "./model";
import { refuseCrossSite } from "./origin";
import { signInWithPassword } from "./sign-in";
import { clearedSessionCookie, closeAllSessions, closeSession, sessionPolicy, type OpenedSession } from "./sessions";
import { sessionSecretFrom } from "./cookie";
import { signInThrottle } from "./throttle";
import { personOf } from "./views";

const NO_STORE = { "cache-control": "no-store" };
const iso = (ms: number) => new Date(ms).toISOString();

export function sessionResponse(opened: OpenedSession, body: unknown, status = 201): Response {
  return Response.json(body, { status, headers: { "set-cookie": opened.setCookie, ...NO_STORE } });
}

export const sessionRoutes = (ctx: AppContext) => {
  const throttle = signInThrottle(ctx.config.signInFreeFailures);
  const policy = sessionPolicy(ctx.config);

  const open = new Elysia({ detail: { tags: ["Sessions"] } })
    // Sign in: {email, password} → 201 with the session cookie; 401 `invalid_credentials`; 429 `too_many_attempts`.
    .post(
      "/api/v1/session",
      async ({ body, request }) => {
        refuseCrossSite(request, ctx.publicUrl());
        const { opened, account } = await signInWithPassword(ctx, throttle, request, body);
        return sessionResponse(opened, { person: personOf(account), session: { id: opened.id, method: "password", expiresAt: iso(opened.expiresAt) } });
      },
      { body: signInBody },
    )
    // Sign out: ends this browser's session and clears the cookie (204 also when there was none).
    .delete("/api/v1/session", async ({ request }) => {
      refuseCrossSite(request, ctx.publicUrl());
      const ended = await closeSession(ctx.db, sessionSecretFrom(request.headers.get("cookie"), ctx.publicUrl()));
      if (ended) await recordAudit(ctx.db, { action: "session.signed_out", actorId: ended.accountId, target: { kind: "session", id: ended.id }, ip: clientAddressOf(request) }, ctx.log);
      return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(ctx, request), ...NO_STORE } });
    });

  const signedIn = new Elysia({ detail: { tags: ["Sessions"] } })
    .use(authGuard(ctx, "account:read"))
    // Who is signed in: the person, and the session when the cookie was the credential (null for a bearer).
    .get("/api/v1/session", async ({ principal }) => {
      const row = principal.via === "session" ? await ctx.db.query.webSessions.findFirst({ where: eq(webSessions.id, principal.credentialId) }) : undefined;
      const session = row
        ? { id: row.id, method: row.via, createdAt: iso(row.createdAt), expiresAt: iso(row.expiresAt), idleExpiresAt: iso(Math.min(row.expiresAt, row.lastSeenAt + policy.idleMs)) }
        : null;
      return new Response(JSON.stringify({ person: personOf(principal.account), via: principal.via, session }), { headers: { "content-type": "application/json", ...NO_STORE } });
    });

  const everywhere = new Elysia({ detail: { tags: ["Sessions"] } })
    .use(authGuard(ctx))
    // Sign out everywhere: every session of the caller ends (other browsers included); API keys stay.
    .post("/api/v1/session/sign-out-everywhere", async ({ principal, request }) => {
      const ended = await closeAllSessions(ctx.db, principal.account.id);
      await recordAudit(
        ctx.db,
        { action: "session.signed_out_everywhere", actorId: principal.account.id, actorLabel: principal.account.email ?? principal.account.name, ip: clientAddressOf(request), details: { sessions: ended } },
        ctx.log,
      );
      return Response.json({ signedOut: ended }, { headers: { "set-cookie": clearedSessionCookie(ctx, request), ...NO_STORE } });
    });

  return new Elysia().use(open).use(signedIn).use(everywhere);
};
