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
const init = `window.ui = SwaggerUIBundle({ url: "/swagger/json", dom_id: "#swagger-ui" });`;

export const docsRoutes = (version: string) =>
  new Elysia()
    .use(
      swagger({
        path: "/swagger/scalar",
        specPath: "/swagger/json",
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
      }),
    )
    .get("/swagger", () => new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } }), { detail: { hide: true } })
    .get("/swagger/assets/init.js", () => new Response(init, { headers: { "content-type": "text/javascript" } }), { detail: { hide: true } })
    .get("/swagger/assets/swagger-ui-bundle.js", () => Bun.file(bundleJs), { detail: { hide: true } })
    .get("/swagger/assets/swagger-ui.css", () => Bun.file(css), { detail: { hide: true } });
