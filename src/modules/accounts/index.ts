// The caller's own account (plan and usage), and the admin's account management.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { AppError } from "../../lib/errors";
import { authGuard } from "../auth/guard";
import { createApiKey } from "../auth/keys";
import { usageOf } from "../plans/metering";
import { accountParams, createAccountBody, setPlanBody } from "./model";
import { accountView, createAccount, getAccount, listAccounts, setPlan, type Account } from "./service";

const requireAdmin = (account: Account) => {
  if (!account.isAdmin) throw new AppError("forbidden", "Only the installation's admin can manage accounts");
};

export const accountRoutes = (ctx: AppContext) => new Elysia().use(ownAccountRoutes(ctx)).use(adminRoutes(ctx));

const ownAccountRoutes = (ctx: AppContext) =>
  new Elysia({ detail: { tags: ["Accounts"] } })
    .use(authGuard(ctx, "account:read"))
    // The caller's account with its plan, limits and usage.
    .get("/api/v1/account", async ({ principal }) => ({
      account: accountView(principal.account),
      usage: await usageOf(ctx.db, ctx.config, principal.account),
    }));

// Account management mints keys: the admin's own API key only, never an OAuth access token.
const adminRoutes = (ctx: AppContext) =>
  new Elysia({ detail: { tags: ["Accounts"] } })
    .use(authGuard(ctx))
    // Admin: every account.
    .get("/api/v1/admin/accounts", async ({ principal }) => {
      requireAdmin(principal.account);
      return { accounts: (await listAccounts(ctx.db)).map(accountView) };
    })
    // Admin: a new account and its first API key (shown once).
    .post(
      "/api/v1/admin/accounts",
      async ({ principal, body, set }) => {
        requireAdmin(principal.account);
        const account = await createAccount(ctx.db, { name: body.name.trim(), planId: body.plan ?? ctx.config.defaultPlan, email: body.email });
        const apiKey = await createApiKey(ctx.db, account.id, "First key");
        set.status = 201;
        return { account: accountView(account), apiKey };
      },
      { body: createAccountBody },
    )
    // Admin: one account with its usage.
    .get(
      "/api/v1/admin/accounts/:accountId",
      async ({ principal, params }) => {
        requireAdmin(principal.account);
        const account = await getAccount(ctx.db, params.accountId);
        return { account: accountView(account), usage: await usageOf(ctx.db, ctx.config, account) };
      },
      { params: accountParams },
    )
    // Admin: change an account's plan.
    .patch(
      "/api/v1/admin/accounts/:accountId",
      async ({ principal, params, body }) => {
        requireAdmin(principal.account);
        return { account: accountView(await setPlan(ctx.db, params.accountId, body.plan)) };
      },
      { params: accountParams, body: setPlanBody },
    );
