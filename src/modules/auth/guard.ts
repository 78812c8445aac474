// Account-mode guard: every route of a plugin that uses it gets `principal`, or the request ends in 401
// (no valid credential) or 403 `insufficient_scope` (an OAuth access token without the scope the route
// needs, auth/scopes.ts; with no rule given, the plugin's routes are owner-only).
// It runs in the transform phase (derive), before the body and params are validated, and a body the
// parser could not read is reported only after the credential passed: without a valid key, every
// account-mode route answers 401 whatever was sent (issue 17).
// A request without Authorization may come from a person's browser with a session cookie (ctx.sessions,
// modules/people): it acts as the person's own key, and a state-changing one must come from this server's
// own origin (Origin, and Sec-Fetch-Site when sent), or it ends in 403 `cross_site_request` before anything
// runs. A request with Authorization is judged by that alone: the cookie is ignored.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { throwDeferredBodyError } from "../../http/errors";
import { AppError } from "../../lib/errors";
import { postedFromThisOrigin } from "../oauth/form-origin";
import { bearerChallenge, insufficientScopeChallenge } from "../oauth/metadata";
import { authenticate, type Principal } from "./keys";
import { allows, requirementOf, type Requirement, type ScopeRule } from "./scopes";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface GuardOptions {
  /** false: a bearer only (routes that turn a bearer into a session). */
  sessions?: boolean;
}

export const authGuard = (ctx: AppContext, rule: ScopeRule = "owner", options: GuardOptions = {}) =>
  new Elysia().derive({ as: "scoped" }, async ({ request }) => {
    // The request's own headers, not Elysia's `headers` (naming it copies every request's headers, app-wide).
    const authorization = request.headers.get("authorization") ?? undefined;
    let principal = authorization === undefined && options.sessions !== false ? await sessionPrincipal(ctx, request) : null;
    if (!principal) principal = await bearerPrincipal(ctx, authorization);
    requireScope(principal, requirementOf(rule, request.method), request.method);
    throwDeferredBodyError(request);
    return { principal };
  });

/** The person of a session cookie; a state-changing request must be sent from this server's own pages. */
async function sessionPrincipal(ctx: AppContext, request: Request): Promise<Principal | null> {
  if (!ctx.sessions || !request.headers.has("cookie")) return null;
  const principal = await ctx.sessions(request);
  if (principal && !SAFE_METHODS.has(request.method) && !postedFromThisOrigin(request.headers, ctx.publicUrl()))
    throw new AppError("cross_site_request", "This request was not sent from this server's own pages, so the session cookie does not count: sign in here, or send an API key as a bearer");
  return principal;
}

async function bearerPrincipal(ctx: AppContext, authorization: string | undefined): Promise<Principal> {
    try {
      return await authenticate(ctx.db, authorization, { accessToken: ctx.accessTokens, log: ctx.log });
    } catch (error) {
      // RFC 6750 §3: a 401 names its scheme and (RFC 9728) where an OAuth client learns how to get a token.
      if (!(error instanceof AppError && error.code === "unauthorized")) throw error;
      const challenge = bearerChallenge(ctx.publicUrl(), "", authorization === undefined ? undefined : error.message);
      throw new AppError("unauthorized", error.message, { ...error.details, headers: { "www-authenticate": challenge } });
    }
}

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
