// The admin web page: static files from web/, embedded into the compiled binary.
import { Elysia } from "elysia";
import indexHtml from "../../../web/index.html" with { type: "file" };

// Imported as a file, the .html is a path string (bun-types types it as an HTML bundle).
const html = (path: unknown) => new Response(Bun.file(path as string), { headers: { "content-type": "text/html; charset=utf-8" } });

export const webRoutes = () =>
  new Elysia({ detail: { hide: true } })
    // The single-page admin app.
    .get("/", () => html(indexHtml));
