// Account-mode guard: every route of a plugin that uses it gets `principal`, or the request ends in 401.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { AppError } from "../../lib/errors";
import { bearerChallenge } from "../oauth/metadata";
import { authenticate } from "./keys";

export const authGuard = (ctx: AppContext) =>
  new Elysia().resolve({ as: "scoped" }, async ({ headers }) => {
    try {
      return { principal: await authenticate(ctx.db, headers.authorization, { accessToken: ctx.accessTokens }) };
    } catch (error) {
      // RFC 6750 §3: a 401 names its scheme and (RFC 9728) where an OAuth client learns how to get a token.
      if (!(error instanceof AppError && error.code === "unauthorized")) throw error;
      const challenge = bearerChallenge(ctx.publicUrl(), "", headers.authorization === undefined ? undefined : error.message);
      throw new AppError("unauthorized", error.message, { ...error.details, headers: { "www-authenticate": challenge } });
    }
  });
