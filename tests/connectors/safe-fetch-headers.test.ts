// The connector's extra headers and conditional GETs through the SSRF-safe fetch: a secret header goes to
// the configured origin only, never across a redirect to another; a 304 is an answer, not an error.
import { afterAll, expect, test } from "bun:test";
import { parseAllowList, safeFetch } from "../../src/ingest";

const seen: { server: string; auth: string | null }[] = [];
const other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => (seen.push({ server: "other", auth: req.headers.get("authorization") }), new Response("<p>other</p>", { headers: { "content-type": "text/html" } })) });
const home: ReturnType<typeof Bun.serve> = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req): Response {
    seen.push({ server: "home", auth: req.headers.get("authorization") });
    const path = new URL(req.url).pathname;
    if (path === "/away") return Response.redirect(`http://127.0.0.1:${other.port}/landing`, 302);
    if (path === "/here") return Response.redirect(`http://127.0.0.1:${home.port}/page`, 302);
    if (req.headers.get("if-none-match") === '"v1"') return new Response(null, { status: 304, headers: { etag: '"v1"' } });
    return new Response("<p>home</p>", { headers: { "content-type": "text/html", etag: '"v1"', "last-modified": "Mon, 01 Jun 2026 10:00:00 GMT" } });
  },
});
afterAll(() => {
  home.stop(true);
  other.stop(true);
});

const opts = { allowHosts: parseAllowList("127.0.0.1"), headers: { authorization: "Bearer only-home" } };

test("a secret header follows a redirect on its origin, and is dropped on a redirect to another", async () => {
  seen.length = 0;
  await safeFetch(`http://127.0.0.1:${home.port}/here`, opts);
  expect(seen).toEqual([{ server: "home", auth: "Bearer only-home" }, { server: "home", auth: "Bearer only-home" }]);
  seen.length = 0;
  const res = await safeFetch(`http://127.0.0.1:${home.port}/away`, opts);
  expect(new TextDecoder().decode(res.body)).toBe("<p>other</p>");
  expect(seen).toEqual([{ server: "home", auth: "Bearer only-home" }, { server: "other", auth: null }]);
});

test("validators come back with the answer; a conditional GET answered 304 is a result with an empty body", async () => {
  const first = await safeFetch(`http://127.0.0.1:${home.port}/page`, opts);
  expect(first).toMatchObject({ status: 200, etag: '"v1"', lastModified: "Mon, 01 Jun 2026 10:00:00 GMT" });
  const again = await safeFetch(`http://127.0.0.1:${home.port}/page`, { ...opts, headers: { "if-none-match": '"v1"' }, allowNotModified: true });
  expect(again.status).toBe(304);
  expect(again.body.byteLength).toBe(0);
  // Without allowNotModified a 304 is what it always was: not a document.
  await expect(safeFetch(`http://127.0.0.1:${home.port}/page`, { ...opts, headers: { "if-none-match": '"v1"' } })).rejects.toThrow("HTTP 304");
});
