// The admin web page: static files from web/, embedded into the compiled binary.
import { Elysia } from "elysia";
import indexHtml from "../../../web/index.html" with { type: "file" };

const html = (path: string) => new Response(Bun.file(path), { headers: { "content-type": "text/html; charset=utf-8" } });

export const webRoutes = () =>
  new Elysia({ detail: { hide: true } })
    // The single-page admin app.
    .get("/", () => html(indexHtml));
