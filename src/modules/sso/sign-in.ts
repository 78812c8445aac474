// Single sign-on with OpenID Connect, the authorization code flow with PKCE, state and nonce, all checked by
// openid-client (never by hand): the id_token's signature against the provider's published keys, its
// issuer, audience, expiry and nonce. Then the person (identities.ts) and a session (people/sessions.ts).
import * as oidc from "openid-client";
import type { AppContext } from "../../context";
import { clientAddressOf } from "../../http/client-address";
import { recordAudit } from "../audit/record";
import { openSession, type OpenedSession } from "../people/sessions";
import { classifySignOnError, errorSummary } from "./classify";
import { providerClient } from "./discovery";
import { SsoFailure } from "./failure";
import { beginFlow, safeReturnTo, takeFlow } from "./flows";
import { personForSignOn, type SignOnClaims } from "./identities";
import { callbackUrl, type SsoProvider } from "./providers";

/** Starts a sign-in: answers the provider's authorization URL and the flow cookie's secret. */
export async function startSignOn(ctx: AppContext, provider: SsoProvider, returnTo: string | null): Promise<{ url: string; flowSecret: string }> {
  let client: oidc.Configuration;
  try {
    client = await providerClient(provider);
  } catch (error) {
    throw classifySignOnError(error);
  }
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(client, {
    redirect_uri: callbackUrl(ctx.publicUrl(), provider),
    scope: provider.scopes,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  const flowSecret = await beginFlow(ctx.db, { provider: provider.id, state, nonce, codeVerifier, returnTo: safeReturnTo(returnTo) });
  return { url: url.href, flowSecret };
}

export interface SignedOn {
  opened: OpenedSession;
  returnTo: string;
}

/** Finishes a sign-in at the callback. Every refusal is audited with its reason and nothing is kept. */
export async function finishSignOn(ctx: AppContext, provider: SsoProvider, request: Request): Promise<SignedOn> {
  let email: string | null = null;
  try {
    const flow = await takeFlow(ctx.db, request, ctx.publicUrl());
    if (!flow || flow.provider !== provider.id)
      throw new SsoFailure("unknown_flow", "sso_failed", "This sign-in was not started in this browser, took too long, or was finished already. Start again.");
    const client = await providerClient(provider);
    // The URL the provider sent the browser to, rebuilt on the public base (a proxy may have rewritten the host).
    const current = new URL(callbackUrl(ctx.publicUrl(), provider) + new URL(request.url).search);
    const tokens = await oidc.authorizationCodeGrant(client, current, { pkceCodeVerifier: flow.codeVerifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
    const claims = await claimsOf(client, tokens);
    email = typeof claims.email === "string" ? claims.email : null;
    const issuer = client.serverMetadata().issuer;
    const person = await personForSignOn(ctx, provider, issuer, claims);
    if (person.account.deactivatedAt !== null) throw new SsoFailure("account_deactivated", "sso_refused", "This person is deactivated here; ask an admin.");
    const opened = await openSession(ctx, person.account.id, request, { method: "oidc", details: { provider: provider.id, issuer, subject: claims.sub, created: person.created, role: person.role } });
    return { opened, returnTo: flow.returnTo };
  } catch (error) {
    const failure = classifySignOnError(error);
    if (failure !== error) ctx.log.warn("single sign-on failed", { provider: provider.id, reason: failure.reason, error: errorSummary(error) });
    await recordAudit(
      ctx.db,
      {
        action: "session.sign_in_failed",
        actorId: null,
        actorLabel: email,
        ip: clientAddressOf(request),
        details: { method: "oidc", provider: provider.id, reason: failure.reason, ...(failure === error ? {} : { error: errorSummary(error) }), ...(email ? { email } : {}) },
      },
      ctx.log,
    );
    throw failure;
  }
}

/** The id_token's claims, with the email and profile from userinfo when the id_token leaves them out. */
async function claimsOf(client: oidc.Configuration, tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>): Promise<SignOnClaims> {
  const idClaims = tokens.claims();
  if (!idClaims) throw new SsoFailure("no_id_token", "sso_failed", "The sign-in provider sent no id_token.");
  if (typeof idClaims.email === "string" || !client.serverMetadata().userinfo_endpoint) return idClaims as SignOnClaims;
  // Userinfo must name the same subject as the verified id_token (the library checks it).
  const info = await oidc.fetchUserInfo(client, tokens.access_token, idClaims.sub);
  return { ...info, ...idClaims } as SignOnClaims;
}
