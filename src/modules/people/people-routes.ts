// People for the server admin (accounts.isAdmin): the list, deactivation and reactivation, reset links; and
// the setup/reset link itself, used by the person it was made for (no credential: the token is one).
import { Elysia, t } from "elysia";
import type { AppContext, Principal } from "../../context";
import { clientAddressOf } from "../../http/client-address";
import { AppError } from "../../lib/errors";
import { recordAudit } from "../audit/record";
import { authGuard } from "../auth/guard";
import { consumeLink, inspectLink, resetLink } from "./links";
import { PASSWORD_MAX_LENGTH, checkEmail, checkNewPassword, findByEmail, setPassword } from "./passwords";
import { deactivatePerson, listPeople, reactivatePerson } from "./people";
import { refuseCrossSite } from "./origin";
import { sessionResponse } from "./session-routes";
import { closeAllSessions, openSession } from "./sessions";
import { personOf } from "./views";

const personParams = t.Object({ personId: t.String() });
const iso = (ms: number) => new Date(ms).toISOString();

function requireAdmin(principal: Principal): void {
  if (!principal.account.isAdmin) throw new AppError("forbidden", "Only a server admin can manage people");
}

const actorOf = (principal: Principal, request: Request) => ({
  actorId: principal.account.id,
  actorLabel: principal.account.email ?? principal.account.name,
  ip: clientAddressOf(request),
});

export const peopleAdminRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: "/api/v1/people", detail: { tags: ["People"] } })
    .use(authGuard(ctx))
    // Every person of the server, oldest first (server admins only).
    .get("", async ({ principal }) => {
      requireAdmin(principal);
      return { people: (await listPeople(ctx.db)).map(personOf) };
    })
    // Deactivate: the person's sessions, API keys and OAuth connections end at once, on every replica.
    .post(
      "/:personId/deactivate",
      async ({ principal, params, request }) => {
        requireAdmin(principal);
        const { account, ended } = await deactivatePerson(ctx.db, principal.account, params.personId);
        await recordAudit(ctx.db, { action: "person.deactivated", ...actorOf(principal, request), target: { kind: "account", id: account.id }, details: ended }, ctx.log);
        return { person: personOf(account), ended };
      },
      { params: personParams },
    )
    // Reactivate: the person may sign in again (their old keys and connections stay revoked).
    .post(
      "/:personId/reactivate",
      async ({ principal, params, request }) => {
        requireAdmin(principal);
        const account = await reactivatePerson(ctx.db, params.personId);
        await recordAudit(ctx.db, { action: "person.reactivated", ...actorOf(principal, request), target: { kind: "account", id: account.id } }, ctx.log);
        return { person: personOf(account) };
      },
      { params: personParams },
    )
    // A one-time password reset link for a person (shown to the admin, who hands it over).
    .post(
      "/:personId/reset-link",
      async ({ principal, params, request, set }) => {
        requireAdmin(principal);
        const link = await resetLink(ctx, params.personId, principal.account.id);
        await recordAudit(ctx.db, { action: "password.reset_requested", ...actorOf(principal, request), target: { kind: "account", id: params.personId } }, ctx.log);
        set.status = 201;
        return link;
      },
      { params: personParams },
    );

const tokenBody = t.Object({ token: t.String({ maxLength: 200 }) });
const redeemBody = t.Object({
  token: t.String({ maxLength: 200 }),
  password: t.String({ maxLength: PASSWORD_MAX_LENGTH }),
  email: t.Optional(t.String({ maxLength: 254 })),
});

export const passwordLinkRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: "/api/v1/password-links", detail: { tags: ["People"] } })
    // What a setup or reset link is for (the page asks before showing its form); the link stays unused.
    .post(
      "/check",
      async ({ body }) => {
        const { purpose, account, expiresAt } = await inspectLink(ctx.db, body.token);
        return { purpose, person: { name: account.name, email: account.email }, expiresAt: iso(expiresAt) };
      },
      { body: tokenBody },
    )
    // Use the link: set the password (a setup link also sets the email), end the person's other sessions,
    // and sign them in here. Once only.
    .post(
      "/redeem",
      async ({ body, request }) => {
        refuseCrossSite(request, ctx.publicUrl());
        const { purpose, account } = await inspectLink(ctx.db, body.token);
        checkNewPassword(body.password);
        const email = body.email !== undefined && body.email.trim() !== "" ? checkEmail(body.email) : undefined;
        if (purpose === "setup" && !email && !account.email) throw new AppError("invalid_request", "Choose the email you will sign in with", { field: "email" });
        const holder = email ? await findByEmail(ctx.db, email) : undefined;
        if (holder && holder.id !== account.id) throw new AppError("conflict", "Another person already signs in with this email", { field: "email" });
        const { accountId } = await consumeLink(ctx.db, body.token);
        const updated = await setPassword(ctx.db, accountId, body.password, purpose === "setup" ? email : undefined);
        await closeAllSessions(ctx.db, accountId);
        await recordAudit(ctx.db, { action: "password.set", actorId: accountId, actorLabel: updated.email ?? updated.name, ip: clientAddressOf(request), target: { kind: "account", id: accountId }, details: { via: purpose } }, ctx.log);
        const opened = await openSession(ctx, accountId, request, { method: "password", details: { via: purpose } });
        return sessionResponse(opened, { person: personOf(updated), session: { id: opened.id, method: "password", expiresAt: iso(opened.expiresAt) } });
      },
      { body: redeemBody },
    );
