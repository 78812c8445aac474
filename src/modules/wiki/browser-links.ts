// A citation's `url` (the page's API address, wiki/urls.ts) opened in a browser: a navigation that prefers
// HTML and carries no Authorization goes to the admin page's view of that page, which signs the person in
// when needed (the session cookie, SameSite=Lax, comes along on a link followed from another site). API
// clients (JSON, or no Accept) and browsers sending a bearer get exactly what they got before.
import { Elysia } from "elysia";
import { prefersHtml } from "./page-html";

const PAGE_PATH = /^\/api(?:\/v1)?\/brains\/([^/?#]+)\/pages\/([^/?#]+)\/?$/;

/** Where a browser opening this page URL is sent, or null when the request is not such a navigation. */
export function pageViewFor(request: Request): string | null {
  if (request.method !== "GET" || request.headers.has("authorization")) return null;
  const accept = request.headers.get("accept");
  if (!accept?.includes("html")) return null;
  const match = PAGE_PATH.exec(new URL(request.url).pathname);
  if (!match || !prefersHtml(accept)) return null;
  // The segments stay as sent (percent-encoded): the admin page's routes decode them.
  return `/#/brains/${match[1]}/wiki/${match[2]}`;
}

export const browserPageLinks = () =>
  new Elysia({ name: "wiki.browser-links" }).onRequest(({ request }) => {
    const location = pageViewFor(request);
    if (location) return new Response(null, { status: 303, headers: { location, "cache-control": "no-store", vary: "Accept, Authorization" } });
  });
