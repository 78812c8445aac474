// Brainbox as its own OAuth 2.1 authorization server, for one-click connectors (MCP hosts): discovery,
// dynamic client registration, the consent page, the token and revocation endpoints, and the owner's
// list of connected clients (grants). Tokens it issues are accepted wherever an API key is.
import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { AppError } from "../../lib/errors";
import { clientAddressOf } from "../../http/client-address";
import { recordAudit } from "../audit/record";
import { authGuard } from "../auth/guard";
import { API_KEY_PREFIX, authenticate } from "../auth/keys";
import { parseAuthorizationRequest, redirectWith, type AuthorizationRequest } from "./authorize";
import { clientResolver } from "./client-metadata";
import { authenticateClient, findClient, registerClient } from "./clients";
import { issueCode } from "./codes";
import { CONSENT_CSS, CONSENT_CSS_PATH, consentPage, errorPage, PAGE_HEADERS } from "./consent-page";
import { consentSecret, signConsent, verifyConsent } from "./consent-token";
import { NO_STORE, OAuthError, oauthEndpoint } from "./errors";
import { formFields } from "./form";
import { postedFromThisOrigin } from "./form-origin";
import { listGrants, revokeGrant } from "./grants";
import { authorizationServerMetadata, protectedResourceMetadata } from "./metadata";
import { redirectUriMatches } from "./redirect-uris";
import { tokenService } from "./tokens";
import { webSessionRoutes } from "./web-session-routes";
import { csrfMatches, csrfTokenFor, resolveWebSession, type WebSession } from "./web-sessions";

export { resolveAccessToken } from "./tokens";
export { mcpResourceMetadataUrl } from "./metadata";

const NOT_FROM_THIS_PAGE = "This form was not sent from this page: review the request and answer again.";
const html = (body: string, status = 200) => new Response(body, { status, headers: PAGE_HEADERS });
const seeOther = (location: string) => new Response(null, { status: 303, headers: { location, ...NO_STORE } });

export const oauthRoutes = (ctx: AppContext) => {
  const tokens = tokenService({ db: ctx.db, config: ctx.config, publicUrl: ctx.publicUrl });
  const issuer = () => ctx.publicUrl();
  const resolveClient = clientResolver({ db: ctx.db, allowHosts: ctx.config.fetchAllowHosts });

  /** The person signed in to the admin page in this browser (any live session may consent). */
  async function consentingSession(headers: Headers): Promise<WebSession | null> {
    // Sessions opened with a connector's access token never resolve (people/sessions.ts): it cannot connect
    // further clients, as its token cannot.
    return resolveWebSession(ctx, headers);
  }

  /** The consent form for a checked request (again, with `error`, after a bad API key). */
  async function consentFor(request: AuthorizationRequest, headers: Headers, error?: string) {
    const client = await findClient(ctx.db, request.clientId);
    if (!client || !redirectUriMatches(client.redirectUris, request.redirectUri)) return html(errorPage("This application is no longer registered."), 400);
    const secret = await consentSecret(ctx.db);
    const formToken = signConsent(secret, request);
    const session = await consentingSession(headers);
    const signedIn = session ? { name: session.account.name, csrf: csrfTokenFor(secret, session) } : undefined;
    // Sent here by another site without a cookie (an older server's Strict one is withheld): reload once from this page.
    const reloadForSession = !session && headers.get("sec-fetch-site") === "cross-site" && headers.get("sec-fetch-mode") === "navigate";
    return html(consentPage({ client, redirectUri: request.redirectUri, scope: request.scope, formToken, error, signedIn, reloadForSession }), error ? 400 : 200);
  }

  const discovery = new Elysia({ detail: { tags: ["OAuth"] } })
    // RFC 8414 authorization server metadata: endpoints, PKCE S256, grant types.
    .get("/.well-known/oauth-authorization-server", () => authorizationServerMetadata(issuer()))
    // RFC 9728 protected resource metadata of the HTTP API.
    .get("/.well-known/oauth-protected-resource", () => protectedResourceMetadata(issuer(), ""))
    // RFC 9728 protected resource metadata of /mcp (what its 401 points at).
    .get("/.well-known/oauth-protected-resource/mcp", () => protectedResourceMetadata(issuer(), "/mcp"));

  const endpoints = new Elysia({ detail: { tags: ["OAuth"] } })
    // RFC 7591 dynamic registration: open, as MCP hosts expect; the secret (if any) is shown once.
    .post("/oauth/register", ({ body }) =>
      oauthEndpoint(async () => Response.json(await registerClient(ctx.db, body), { status: 201, headers: NO_STORE })),
    )
    // Token endpoint: authorization_code (with PKCE) and refresh_token (rotating).
    .post("/oauth/token", ({ body, request }) =>
      oauthEndpoint(async () => {
        const form = formFields(body);
        const client = await authenticateClient(ctx.db, request.headers.get("authorization"), form);
        if (form.grant_type === "authorization_code") return Response.json(await tokens.exchangeCode(client, form), { headers: NO_STORE });
        if (form.grant_type === "refresh_token") return Response.json(await tokens.refresh(client, form), { headers: NO_STORE });
        throw new OAuthError(form.grant_type ? "unsupported_grant_type" : "invalid_request", form.grant_type ? `grant_type ${form.grant_type} is not supported` : "grant_type is required");
      }),
    )
    // RFC 7009 revocation: 200 whether or not the token was known.
    .post("/oauth/revoke", ({ body, request }) =>
      oauthEndpoint(async () => {
        const form = formFields(body);
        const client = await authenticateClient(ctx.db, request.headers.get("authorization"), form);
        await tokens.revoke(client, form);
        return new Response(null, { status: 200, headers: NO_STORE });
      }),
    );

  // The consent page is a page for people, not an API: left out of the OpenAPI spec like the admin page.
  const consent = new Elysia({ detail: { hide: true } })
    // The authorization request: the consent page, or an error (a page, or on the redirect URI).
    .get("/oauth/authorize", async ({ request }) => {
      const parsed = await parseAuthorizationRequest(resolveClient, new URL(request.url).searchParams, issuer());
      if (parsed.kind === "show-error") return html(errorPage(parsed.message), 400);
      if (parsed.kind === "redirect-error")
        return seeOther(redirectWith(parsed.redirectUri, { error: parsed.error.code, error_description: parsed.error.description, state: parsed.state, iss: issuer() }));
      return consentFor(parsed.request, request.headers);
    })
    // The consent form: approve (with a pasted API key, or as the signed-in owner with the CSRF token) or deny.
    .post("/oauth/authorize", async ({ body, request: http }) => {
      let form: Record<string, string>;
      try {
        form = formFields(body);
      } catch {
        return html(errorPage("The form could not be read."), 400);
      }
      const secret = await consentSecret(ctx.db);
      const request = verifyConsent(secret, form.form_token);
      if (!request) return html(errorPage("This form has expired or was altered."), 400);
      const back = (params: Record<string, string>) => seeOther(redirectWith(request.redirectUri, { ...params, state: request.state, iss: issuer() }));
      const again = (error: string) => consentFor(request, http.headers, error);
      // Strict, whatever the credential: a POST that is not from this server's own page is refused.
      if (!postedFromThisOrigin(http.headers, issuer())) return again(NOT_FROM_THIS_PAGE);
      if (form.decision !== "approve") return back({ error: "access_denied", error_description: "The owner denied the request" });
      const key = (form.api_key ?? "").trim();
      let accountId: string;
      if (key) {
        // An API key only: a connector's own access token must not connect further clients.
        if (!key.startsWith(API_KEY_PREFIX)) return again(`Paste one of your API keys (they start with ${API_KEY_PREFIX}).`);
        try {
          accountId = (await authenticate(ctx.db, `Bearer ${key}`)).account.id;
        } catch (error) {
          if (error instanceof AppError && error.code === "unauthorized") return again("That API key is not valid (or was revoked).");
          throw error;
        }
      } else {
        const session = await consentingSession(http.headers);
        if (!session) return again(`Paste one of your API keys (they start with ${API_KEY_PREFIX}).`);
        // The session's own token too: a form rendered for another session (or none) fails here.
        if (!csrfMatches(secret, session, form.csrf)) return again(NOT_FROM_THIS_PAGE);
        accountId = session.account.id;
      }
      if (!(await findClient(ctx.db, request.clientId))) return html(errorPage("This application is no longer registered."), 400);
      return back({ code: await issueCode(ctx.db, ctx.config.oauthCodeTtlSeconds, request, accountId) });
    })
    // The consent page's stylesheet (the page's CSP allows only this server's styles).
    .get(CONSENT_CSS_PATH, () => new Response(CONSENT_CSS, { headers: { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=3600" } }));

  const grants = new Elysia({ prefix: "/api/user/oauth-grants", detail: { tags: ["API keys"] } })
    .use(authGuard(ctx))
    // Connected applications (OAuth grants) of the caller's account, newest first, revoked ones included.
    .get("", async ({ principal }) => ({ grants: await listGrants(ctx.db, principal.account.id) }))
    // Disconnect an application: its access and refresh tokens answer 401 from then on.
    .delete(
      "/:grantId",
      async ({ principal, params, set, request }) => {
        await revokeGrant(ctx.db, principal.account.id, params.grantId);
        await recordAudit(ctx.db, { action: "token.revoked", actorId: principal.account.id, actorLabel: principal.account.email ?? principal.account.name, ip: clientAddressOf(request), target: { kind: "grant", id: params.grantId }, details: { by: "owner" } }, ctx.log);
        set.status = 204;
      },
      { params: t.Object({ grantId: t.String() }) },
    );

  return new Elysia().use(discovery).use(endpoints).use(consent).use(grants).use(webSessionRoutes(ctx));
};
