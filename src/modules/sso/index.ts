// Single sign-on over HTTP. `GET /api/v1/session/providers` says what the sign-in screen offers; the
// browser-facing pair `/auth/<provider>/start` and `/auth/<provider>/callback` runs the OpenID Connect
// flow and lands signed in on the admin page. Not a brain feature, so no unversioned twin.
import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { SsoFailure } from "./failure";
import { flowCookie, FLOW_TTL_MS } from "./flows";
import { failureResponse } from "./page";
import { ssoProvidersOf, type SsoProvider } from "./providers";
import { finishSignOn, startSignOn } from "./sign-in";
import { classifySignOnError } from "./classify";
import { startLimiter } from "./start-limit";
import { clientAddressOf } from "../../http/client-address";

const NO_STORE = { "cache-control": "no-store" };

const tooMany = (wait: number) => new SsoFailure("too_many_starts", "rate_limited", `Too many sign-ins started from here; try again in ${wait} s.`);

export const providerView = (p: SsoProvider) => ({ id: p.id, name: p.name, startUrl: `/auth/${p.id}/start` });

export const ssoRoutes = (ctx: AppContext) => {
  const providers = ssoProvidersOf(ctx.config);
  const byId = new Map(providers.map((p) => [p.id, p]));
  const notConfigured = new SsoFailure("not_configured", "not_found", "No single sign-on provider of that name is configured here.");
  const limiter = startLimiter(ctx.config.oidcStartsPerMinute);
  const clearFlow = (request: Request) => ({ "set-cookie": flowCookie(ctx.publicUrl(), "", 0, request) });

  const list = new Elysia({ detail: { tags: ["Sessions"] } }).get(
    "/api/v1/session/providers",
    () => Response.json({ password: true, providers: providers.map(providerView) }, { headers: NO_STORE }),
    { detail: { summary: "The ways to sign in: password, and each single sign-on provider (its button's name and start URL)" } },
  );

  const flow = new Elysia({ detail: { tags: ["Sessions"] } })
    // Redirects the browser to the provider (303), holding the flow in a ten-minute HttpOnly cookie.
    .get(
      "/auth/:provider/start",
      async ({ params, query, request }) => {
        const provider = byId.get(params.provider);
        if (!provider) return failureResponse(request, "single sign-on", notConfigured);
        const wait = limiter.take(clientAddressOf(request) ?? "unknown");
        if (wait > 0) return failureResponse(request, provider.name, tooMany(wait), { "retry-after": String(wait) });
        try {
          const { url, flowSecret } = await startSignOn(ctx, provider, query.returnTo ?? null);
          return new Response(null, { status: 303, headers: { location: url, "set-cookie": flowCookie(ctx.publicUrl(), flowSecret, FLOW_TTL_MS / 1000, request), ...NO_STORE } });
        } catch (error) {
          return failureResponse(request, provider.name, classifySignOnError(error));
        }
      },
      { query: t.Object({ returnTo: t.Optional(t.String({ maxLength: 1000 })) }), detail: { summary: "Start single sign-on: 303 to the provider" } },
    )
    // The provider sends the browser back here: checks, the person, a session; 303 to the admin page.
    .get(
      "/auth/:provider/callback",
      async ({ params, request }) => {
        const provider = byId.get(params.provider);
        if (!provider) return failureResponse(request, "single sign-on", notConfigured);
        try {
          const { opened, returnTo } = await finishSignOn(ctx, provider, request);
          const headers = new Headers({ location: returnTo, ...NO_STORE });
          headers.append("set-cookie", opened.setCookie);
          headers.append("set-cookie", clearFlow(request)["set-cookie"]);
          return new Response(null, { status: 303, headers });
        } catch (error) {
          return failureResponse(request, provider.name, classifySignOnError(error), clearFlow(request));
        }
      },
      { detail: { summary: "Single sign-on callback: 303 to the admin page, signed in" } },
    );

  return new Elysia().use(list).use(flow);
};
