// Account-mode guard: every route of a plugin that uses it gets `principal`, or the request ends in 401
// (no valid credential) or 403 `insufficient_scope` (an OAuth access token without the scope the route
// needs, auth/scopes.ts; with no rule given, the plugin's routes are owner-only).
// It runs in the transform phase (derive), before the body and params are validated, and a body the
// parser could not read is reported only after the credential passed: without a valid key, every
// account-mode route answers 401 whatever was sent (issue 17).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { throwDeferredBodyError } from "../../http/errors";
import { AppError } from "../../lib/errors";
import { bearerChallenge, insufficientScopeChallenge } from "../oauth/metadata";
import { authenticate, type Principal } from "./keys";
import { allows, requirementOf, type Requirement, type ScopeRule } from "./scopes";

export const authGuard = (ctx: AppContext, rule: ScopeRule = "owner") =>
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
    requireScope(principal, requirementOf(rule, request.method), request.method);
    throwDeferredBodyError(request);
    return { principal };
  });

/** 403 `insufficient_scope` (RFC 6750 §3.1) when the principal's token does not allow the requirement. */
export function requireScope(principal: Principal, requirement: Requirement, method = "GET"): void {
  // A read-only key reads and asks; a DELETE (even of its own ask history) is a write it may not make.
  if (principal.readOnly && (method === "DELETE" || !allows(principal.scopes, requirement)))
    throw new AppError("forbidden", "This API key is read-only: it can ask, get context and read, not change anything", { readOnly: true });
  if (allows(principal.scopes, requirement)) return;
  const message =
    requirement === "owner"
      ? "An OAuth access token cannot do this: use the account owner's API key"
      : `This access token lacks the ${requirement} scope: connect the application again and allow it`;
  throw new AppError("insufficient_scope", message, {
    required: requirement,
    headers: { "www-authenticate": insufficientScopeChallenge(requirement, message) },
  });
}
