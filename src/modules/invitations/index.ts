// Invitations over HTTP (v1). Creating, listing and revoking need a person's own API key (owner-only for
// OAuth tokens, like team management); accepting needs the invited person signed in (any credential of theirs).
import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { refuseCrossSite } from "../people/origin";
import { sessionResponse } from "../people/session-routes";
import { personOf } from "../people/views";
import { sendInvitation } from "./mail";
import { checkInvitation, signUpWithInvitation } from "./sign-up";
import { acceptInvitation, createInvitation, invitationView, listInvitations, revokeInvitation } from "./service";

const createBody = t.Object({
  email: t.String({ minLength: 3, maxLength: 254 }),
  teamId: t.Optional(t.String({ minLength: 1 })),
  teamRole: t.Optional(t.Union([t.Literal("admin"), t.Literal("member")])),
  brainId: t.Optional(t.String({ minLength: 1 })),
  brainRole: t.Optional(t.Union([t.Literal("viewer"), t.Literal("editor"), t.Literal("owner")])),
});

/** The link a person opens: the admin page's invitation screen, which accepts it after sign-in (the token is in
 * the fragment, which browsers never send to a server, so it stays out of access logs). */
export const invitationUrl = (base: string, token: string) => `${base}/#/invitation/${encodeURIComponent(token)}`;

export const invitationRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: "/api/v1/invitations", detail: { tags: ["Invitations"] } })
    .use(authGuard(ctx, { GET: "account:read" }))
    // Invite an email address to a team and/or a brain. The link (with its token) is in this answer only.
    .post(
      "",
      async ({ principal, body, set }) => {
        const ttlMs = ctx.config.invitationTtlHours * 3_600_000;
        const { invitation, token } = await createInvitation(ctx.db, principal.account, body, ttlMs, ctx.log);
        const url = invitationUrl(ctx.publicUrl(), token);
        const view = invitationView(invitation);
        let mail: { sent: boolean; error?: string } = { sent: false };
        if (ctx.config.smtpUrl) {
          const what = [view.team && `the team ${view.team.id} as ${view.team.role}`, view.brain && `a brain as ${view.brain.role}`].filter(Boolean).join(" and ");
          mail = await sendInvitation(ctx.config.smtpUrl, ctx.config.smtpFrom, { to: view.email, inviter: principal.account.name, what, url, expiresAt: view.expiresAt }, ctx.log);
        }
        set.status = 201;
        return { invitation: view, token, url, emailed: mail.sent, ...(mail.error ? { mailError: mail.error } : {}) };
      },
      { body: createBody },
    )
    // Invitations the caller sent and those of teams the caller administers (never their tokens).
    .get("", async ({ principal }) => ({ invitations: await listInvitations(ctx.db, principal.account.id) }))
    // Withdraw an invitation; its link then answers 409.
    .delete(
      "/:invitationId",
      async ({ principal, params, set }) => {
        await revokeInvitation(ctx.db, principal.account, params.invitationId, ctx.log);
        set.status = 204;
      },
      { params: t.Object({ invitationId: t.String() }) },
    );

// Accepting is for any credential of the invited person (a read-only key too: it changes only their own access).
export const acceptInvitationRoutes = (ctx: AppContext) =>
  new Elysia({ detail: { tags: ["Invitations"] } })
    .use(authGuard(ctx, { POST: "account:read" }))
    .post(
      "/api/v1/invitations/accept",
      async ({ principal, body }) => ({ invitation: await acceptInvitation(ctx.db, principal.account, body.token, ctx.log) }),
      { body: t.Object({ token: t.String({ minLength: 1, maxLength: 200 }) }) },
    );

// Keyless: the token in the link is the credential. Reading it shows the invitation screen's text; signing up
// makes the invited person when their email has no account yet. Browsers' cross-site posts are refused (a
// page elsewhere must not sign a visitor in to an account it made).
export const invitationSignUpRoutes = (ctx: AppContext) =>
  new Elysia({ detail: { tags: ["Invitations"] } })
    .post(
      "/api/v1/invitations/check",
      async ({ body, request }) => {
        refuseCrossSite(request, ctx.publicUrl());
        return Response.json(await checkInvitation(ctx, body.token), { headers: { "cache-control": "no-store" } });
      },
      { body: t.Object({ token: t.String({ minLength: 1, maxLength: 200 }) }) },
    )
    .post(
      "/api/v1/invitations/sign-up",
      async ({ body, request }) => {
        refuseCrossSite(request, ctx.publicUrl());
        const { opened, account, invitation } = await signUpWithInvitation(ctx, request, body);
        return sessionResponse(opened, { person: personOf(account), session: { id: opened.id, method: "password", expiresAt: new Date(opened.expiresAt).toISOString() }, invitation });
      },
      {
        body: t.Object({
          token: t.String({ minLength: 1, maxLength: 200 }),
          name: t.String({ minLength: 1, maxLength: 120 }),
          password: t.String({ maxLength: 1024 }),
        }),
      },
    );
