// Account-mode guard: every route of a plugin that uses it gets `principal`, or the request ends in 401.
// It runs in the transform phase (derive), before the body and params are validated, and a body the
// parser could not read is reported only after the credential passed: without a valid key, every
// account-mode route answers 401 whatever was sent (issue 17).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { throwDeferredBodyError } from "../../http/errors";
import { authenticate } from "./keys";

export const authGuard = (ctx: AppContext) =>
  new Elysia().derive({ as: "scoped" }, async ({ headers, request }) => {
    const principal = await authenticate(ctx.db, headers.authorization, { accessToken: ctx.accessTokens });
    throwDeferredBodyError(request);
    return { principal };
  });
