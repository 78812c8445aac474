// OpenAPI spec (generated from the route schemas) and a Swagger UI page whose assets the binary serves
// itself, so the docs render with no internet.
import { Elysia } from "elysia";
import { swagger } from "@elysiajs/swagger";
import bundleJs from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import css from "swagger-ui-dist/swagger-ui.css" with { type: "file" };

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Brainbox API</title><link rel="stylesheet" href="/swagger/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/swagger/assets/swagger-ui-bundle.js"></script>
<script src="/swagger/assets/init.js"></script></body></html>`;
/**
 * The page's policy: scripts and the spec only from this server (the page has no inline script: init.js is
 * a file), no plugins, frames or form posts elsewhere, never framed. Swagger UI sets inline styles and its
 * stylesheet embeds its icons as data: images, so those two are allowed; neither can run code.
 */
export const SWAGGER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'";

const init = `window.ui = SwaggerUIBundle({ url: "/swagger/json", dom_id: "#swagger-ui" });`;

/** Where the plugin serves its own UI page (never shown: see docsRoutes). */
const SCALAR_PATH = "/swagger/scalar";
/** Where the plugin serves its spec; `/swagger/json` serves it with the content types the API really takes. */
const RAW_SPEC_PATH = "/swagger/openapi-raw.json";
const FORM_ROUTES = /^\/oauth\//;

type Spec = { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> };

/**
 * The plugin lists application/json, multipart/form-data and text/plain for every body, but the API takes
 * JSON only (anything else is 415, src/http/errors.ts): keep just application/json, except OAuth's forms.
 */
function jsonBodiesOnly(raw: Spec): Spec {
  const spec = structuredClone(raw);
  for (const [path, ops] of Object.entries(spec.paths ?? {})) {
    if (FORM_ROUTES.test(path)) continue;
    for (const op of Object.values(ops)) {
      const content = op.requestBody?.content;
      if (content?.["application/json"]) op.requestBody!.content = { "application/json": content["application/json"] };
    }
  }
  return spec;
}

export const docsRoutes = (version: string) => {
  const plugin = swagger({
    path: SCALAR_PATH,
    specPath: RAW_SPEC_PATH,
    documentation: {
      info: {
        title: "Brainbox API",
        version,
        description: "Knowledge-base question answering. Authenticate with `Authorization: Bearer <API key>`.",
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      security: [{ bearer: [] }],
    },
    exclude: [/^\/swagger/, "/", /^\/assets/],
  });
  const rawSpec = plugin.routes.find((r) => r.path === RAW_SPEC_PATH)?.handler as (() => Spec) | undefined;
  if (!rawSpec) throw new Error("@elysiajs/swagger changed: no spec route to wrap (src/modules/docs/index.ts)");
  return new Elysia()
    // The plugin's own page (Scalar) loads its code from a CDN: it cannot work air-gapped nor under a strict
    // policy, so its address leads to the page served here.
    .onRequest(({ request }) => (new URL(request.url).pathname === SCALAR_PATH ? new Response(null, { status: 308, headers: { location: "/swagger" } }) : undefined))
    .use(plugin)
    .get("/swagger/json", () => jsonBodiesOnly(rawSpec()), { detail: { hide: true } })
    .get("/swagger", () => new Response(page, { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": SWAGGER_CSP } }), { detail: { hide: true } })
    .get("/swagger/assets/init.js", () => new Response(init, { headers: { "content-type": "text/javascript" } }), { detail: { hide: true } })
    .get("/swagger/assets/swagger-ui-bundle.js", () => Bun.file(bundleJs), { detail: { hide: true } })
    .get("/swagger/assets/swagger-ui.css", () => Bun.file(css), { detail: { hide: true } });
};
