// openid-client's errors → a stable reason. The library does every check (state, PKCE, the id_token's
// signature against the provider's keys, iss, aud, exp, nonce); this only names which one failed.
import * as oidc from "openid-client";
import { SsoFailure } from "./failure";

const PROVIDER_DOWN = "The sign-in provider did not answer, so nothing was changed here. Try again in a moment.";
const NOT_VERIFIED = "The sign-in provider's answer could not be verified, so nobody was signed in. Start again.";

/** Each error of a cause chain, outermost first. */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = error; e && out.length < 8; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

export function classifySignOnError(error: unknown): SsoFailure {
  if (error instanceof SsoFailure) return error;
  const errors = chain(error);
  const codes = errors.map((e) => (e as { code?: unknown }).code).filter((c): c is string => typeof c === "string");
  const messages = errors.map((e) => (e instanceof Error ? e.message : "")).join(" | ");
  if (errors.some((e) => e instanceof oidc.AuthorizationResponseError))
    return new SsoFailure("provider_refused", "sso_failed", `The sign-in provider refused the sign-in (${(errors.find((e) => e instanceof oidc.AuthorizationResponseError) as oidc.AuthorizationResponseError).error}).`);
  if (errors.some((e) => e instanceof oidc.ResponseBodyError))
    return new SsoFailure("code_rejected", "sso_failed", "The sign-in provider did not accept this sign-in's code (used already, or not issued for it). Start again.");
  if (codes.includes("OAUTH_TIMEOUT") || codes.includes("OAUTH_ABORT") || errors.some((e) => e instanceof TypeError || (e instanceof DOMException && e.name === "TimeoutError")))
    return new SsoFailure("provider_unreachable", "upstream_unavailable", PROVIDER_DOWN);
  if (codes.includes("OAUTH_RESPONSE_IS_NOT_CONFORM") || codes.includes("OAUTH_RESPONSE_IS_NOT_JSON"))
    return new SsoFailure("provider_unreachable", "upstream_unavailable", PROVIDER_DOWN);
  const claim = errors.map((e) => (e as { cause?: { claim?: unknown; attribute?: unknown } }).cause).find((c) => c && (c.claim || c.attribute));
  const name = String(claim?.claim ?? claim?.attribute ?? "");
  if (codes.includes("OAUTH_JWT_CLAIM_COMPARISON_FAILED") || codes.includes("OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED")) return new SsoFailure(`${name || "claim"}_mismatch`, "sso_failed", NOT_VERIFIED);
  if (codes.includes("OAUTH_JWT_TIMESTAMP_CHECK_FAILED")) return new SsoFailure(name === "exp" ? "id_token_expired" : `id_token_${name || "time"}_invalid`, "sso_failed", NOT_VERIFIED);
  if (codes.includes("OAUTH_KEY_SELECTION_FAILED")) return new SsoFailure("id_token_unknown_key", "sso_failed", NOT_VERIFIED);
  if (/signature verification failed/i.test(messages)) return new SsoFailure("id_token_bad_signature", "sso_failed", NOT_VERIFIED);
  // A response parameter the library compared (state, iss): named in its message.
  const parameter = /unexpected "(\w+)"[^|]*(?:parameter|claim)/.exec(messages)?.[1];
  if (parameter) return new SsoFailure(`${parameter}_mismatch`, "sso_failed", NOT_VERIFIED);
  return new SsoFailure("invalid_response", "sso_failed", NOT_VERIFIED);
}

/** What the audit log keeps of the library's words (never a token). */
export const errorSummary = (error: unknown) =>
  chain(error)
    .filter((e) => e instanceof Error)
    .map((e) => (e as Error).message)
    .join(" ← ")
    .slice(0, 500);
