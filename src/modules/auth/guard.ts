// Account-mode guard: every route of a plugin that uses it gets `principal`, or the request ends in 401.
// It runs in the transform phase (derive), before the body and params are validated, and a body the
// parser could not read is reported only after the credential passed: without a valid key, every
// account-mode route answers 401 whatever was sent (issue 17).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { throwDeferredBodyError } from "../../http/errors";
import { AppError } from "../../lib/errors";
import { bearerChallenge } from "../oauth/metadata";
import { authenticate } from "./keys";

export const authGuard = (ctx: AppContext) =>
  new Elysia().derive({ as: "scoped" }, async ({ request }) => {
    // The request's own headers, not Elysia's `headers` (naming it copies every request's headers, app-wide).
    const authorization = request.headers.get("authorization") ?? undefined;
    let principal;
    try {
      principal = await authenticate(ctx.db, authorization, { accessToken: ctx.accessTokens, log: ctx.log });
    } catch (error) {
      // RFC 6750 §3: a 401 names its scheme and (RFC 9728) where an OAuth client learns how to get a token.
      if (!(error instanceof AppError && error.code === "unauthorized")) throw error;
      const challenge = bearerChallenge(ctx.publicUrl(), "", authorization === undefined ? undefined : error.message);
      throw new AppError("unauthorized", error.message, { ...error.details, headers: { "www-authenticate": challenge } });
    }
    throwDeferredBodyError(request);
    return { principal };
  });
