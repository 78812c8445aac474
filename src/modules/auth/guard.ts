// Account-mode guard: every route of a plugin that uses it gets `principal`, or the request ends in 401.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authenticate } from "./keys";

export const authGuard = (ctx: AppContext) =>
  new Elysia().resolve({ as: "scoped" }, async ({ headers }) => ({
    principal: await authenticate(ctx.db, headers.authorization, { accessToken: ctx.accessTokens }),
  }));
