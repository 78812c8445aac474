// The three paid app actions: quotes that grow with the payload and stop at the ceiling, the SSRF rules
// of link sources for geo/scan, and each job paid for real on the chain rig with its output checked.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PNG } from "pngjs";
import { newAccount } from "../../support/chain/rig";
import { signPayment } from "../../support/chain/sign";
import { expectJson } from "../../support/server";
import { addText, newBrain, pagesOf, waitForSource } from "../../support/sources";
import { decodeGif } from "../../x402/support/gif-decode";
import { ledgerRow, newPaidBrain, nonceOf, payAndCall, RAINFOREST, startPaidRig, termsOf, type PaidRig } from "../../x402/support/paid-rig";

const CEILING = 40_000n;
let rig: PaidRig;
let site: ReturnType<typeof Bun.serve>;
let forbidden: ReturnType<typeof Bun.serve>;
const siteHits: string[] = [];
let forbiddenHits = 0;

const HOME = `<!doctype html><html lang="en"><head>
<title>Acme Rockets: reusable rockets for small payloads</title>
<meta name="description" content="Acme builds reusable rockets that put small satellites in orbit every week, at a price per kilogram anyone can read.">
<link rel="canonical" href="/">
<meta property="og:title" content="Acme Rockets">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"Acme"},{"@type":"WebSite","url":"/"}]}</script>
</head><body><h1>Acme Rockets</h1><h2>Launches</h2><p>We launch every week.</p><h2>Pricing</h2><p>Per kilogram.</p>
<a href="/about">About</a> <a href="/blog/first-launch#top">First launch</a> <a href="https://example.com/elsewhere">Elsewhere</a> <a href="/logo.png">Logo</a>
</body></html>`;
const ABOUT = `<html><head><title>About</title></head><body><h1>About</h1><h1>Team</h1><p>Small team.</p></body></html>`;

beforeAll(async () => {
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url);
      siteHits.push(pathname);
      const html = (body: string) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
      if (pathname === "/") return html(HOME);
      if (pathname === "/about") return html(ABOUT);
      if (pathname === "/blog/first-launch") return html("<html><head><title>First launch</title></head><body><h1>First launch</h1></body></html>");
      if (pathname === "/robots.txt") return new Response("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n");
      if (pathname === "/llms.txt") return new Response("# Acme Rockets\n\n- [About](/about): who we are\n- [Launches](https://acme.test/launches)\n");
      return new Response("not found", { status: 404 });
    },
  });
  forbidden = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (forbiddenHits++, new Response("<html><title>secret</title></html>")) });
  rig = await startPaidRig({
    BRAINBOX_X402_MAX_PER_CALL: String(CEILING),
    BRAINBOX_X402_GEO_SCAN_PRICE_PER_PAGE: "5000",
    BRAINBOX_X402_SOCIAL_IMAGE_PRICE_PER_MEGAPIXEL: "10000",
    BRAINBOX_X402_CLIPS_PRICE_PER_FRAME: "1000",
    BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`,
  });
});
afterAll(async () => {
  await rig?.stop();
  await site?.stop(true);
  await forbidden?.stop(true);
});

const quoteOf = async (path: string, body: unknown) => BigInt((await termsOf(rig.server, path, body)).maxAmountRequired);
const appBalance = () => rig.chain.balanceOf(rig.appPayTo);

/** Pays for `body` at `path` with a fresh signature; returns the response and what the app wallet gained. */
async function payFor(path: string, body: unknown, headers: Record<string, string> = {}) {
  const requirements = await termsOf(rig.server, path, body);
  const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements });
  const before = await appBalance();
  const res = await payAndCall(rig.server, path, body, header, headers);
  return { res, requirements, header, gained: async () => (await appBalance()) - before };
}

describe("quotes", () => {
  test("grow with the payload and stop at BRAINBOX_X402_MAX_PER_CALL", async () => {
    const url = `http://127.0.0.1:${site.port}/`;
    expect(await quoteOf("/api/x402/geo/scan", { url })).toBe(5000n);
    expect(await quoteOf("/api/x402/geo/scan", { url, maxPages: 4 })).toBe(20_000n);
    expect(await quoteOf("/api/x402/geo/scan", { url, maxPages: 10 })).toBe(CEILING); // 50 000 capped

    expect(await quoteOf("/api/x402/social/image", { title: "t", width: 400, height: 200 })).toBe(800n);
    expect(await quoteOf("/api/x402/social/image", { title: "t" })).toBe(7560n); // 1200×630
    expect(await quoteOf("/api/x402/social/image", { title: "t", width: 2400, height: 1260 })).toBe(30_240n);

    const brainId = await newBrain(rig.server);
    await expectJson(await rig.server.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { visibility: "public" } }), 200);
    const { source } = await addText(rig.server, brainId, "Amazon rainforest", RAINFOREST);
    await waitForSource(rig.server, brainId, source.id);
    const slug = (await pagesOf(rig.server, brainId))[0]!.slug;
    expect(await quoteOf("/api/x402/clips/render", { brainId, slug, frames: 2 })).toBe(2000n);
    expect(await quoteOf("/api/x402/clips/render", { brainId, slug })).toBe(24_000n);
    expect(await quoteOf("/api/x402/clips/render", { brainId, slug, frames: 60 })).toBe(CEILING); // 60 000 capped
  });

  test("payloads out of range are 422 before any quote", async () => {
    expect((await rig.server.api("/api/x402/geo/scan", { method: "POST", json: { url: "http://x.test/", maxPages: 11 }, key: null })).status).toBe(422);
    expect((await rig.server.api("/api/x402/social/image", { method: "POST", json: { title: "t", width: 5000 }, key: null })).status).toBe(422);
    expect((await rig.server.api("/api/x402/clips/render", { method: "POST", json: { brainId: "b", slug: "s", frames: 1 }, key: null })).status).toBe(422);
  });
});

describe("POST /api/x402/geo/scan", () => {
  test("refuses a loopback URL that is not allow-listed, before quoting and even with a payment", async () => {
    const url = `http://127.0.0.1:${forbidden.port}/`;
    const reply = await expectJson(await rig.server.api("/api/x402/geo/scan", { method: "POST", json: { url }, key: null }), 422);
    expect(reply.error).toMatchObject({ field: "url", reason: "address_blocked" });
    const requirements = await termsOf(rig.server, "/api/x402/geo/scan", { url: `http://127.0.0.1:${site.port}/` });
    const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements });
    expect((await payAndCall(rig.server, "/api/x402/geo/scan", { url }, header)).status).toBe(422);
    for (const bad of [`http://localhost:${forbidden.port}/`, "http://[::1]/", "http://169.254.169.254/latest/meta-data/", "file:///etc/passwd", "not a url"]) {
      expect((await rig.server.api("/api/x402/geo/scan", { method: "POST", json: { url: bad }, key: null })).status).toBe(422);
    }
    expect(forbiddenHits).toBe(0);
    expect(await ledgerRow(rig.server, nonceOf(header))).toBeUndefined();
  });

  test("scans the allow-listed site for the quote of two pages: headings, JSON-LD, llms.txt, AI crawler rules, a score", async () => {
    siteHits.length = 0;
    const { res, gained } = await payFor("/api/x402/geo/scan", { url: `http://127.0.0.1:${site.port}/`, maxPages: 2 });
    const { report, payment } = await expectJson(res, 200);
    expect(payment).toMatchObject({ settled: true, amount: "10000" });
    expect(await gained()).toBe(10_000n);
    expect(report.pagesScanned).toBe(2);
    const [home, second] = report.pages;
    expect(home).toMatchObject({
      ok: true,
      title: "Acme Rockets: reusable rockets for small payloads",
      lang: "en",
      canonical: "/",
      headings: { h1: ["Acme Rockets"], h2: ["Launches", "Pricing"] },
      structuredData: { types: ["Organization", "WebSite"], blocks: 1, invalidBlocks: 0 },
      score: 60,
    });
    expect(second).toMatchObject({ url: `http://127.0.0.1:${site.port}/about`, headings: { h1: ["About", "Team"] } });
    expect(second.issues).toContain("No meta description");
    expect(report.llmsTxt).toMatchObject({ present: true, title: "Acme Rockets", links: 2 });
    const access = Object.fromEntries(report.robotsTxt.crawlers.map((c: { name: string; allowed: boolean }) => [c.name, c.allowed]));
    expect(access).toMatchObject({ GPTBot: false, ClaudeBot: true, PerplexityBot: true, "Google-Extended": true });
    expect(report.score).toBeGreaterThan(50);
    expect(report.score).toBeLessThan(100);
    expect(report.recommendations.some((r: string) => r.includes("GPTBot"))).toBe(true);
    // Same-site pages only, no assets, nothing beyond the two pages paid for.
    expect(siteHits.filter((p) => !p.endsWith(".txt")).sort()).toEqual(["/", "/about"]);
  });

  test("a start page that cannot be fetched is not charged", async () => {
    const { res, header, gained } = await payFor("/api/x402/geo/scan", { url: `http://127.0.0.1:${site.port}/missing` });
    expect((await expectJson(res, 422)).error.reason).toBe("http_status");
    expect(await gained()).toBe(0n);
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "voided" });
  });
});

describe("POST /api/x402/social/image", () => {
  test("renders a PNG of the requested size, paid by pixel area (JSON with base64)", async () => {
    const { res, gained } = await payFor("/api/x402/social/image", { title: "Grounded answers, paid per question", text: "Brainbox", width: 400, height: 200 });
    const { image, payment } = await expectJson(res, 200);
    expect(payment).toMatchObject({ settled: true, amount: "800" });
    expect(await gained()).toBe(800n);
    const png = Buffer.from(image.base64, "base64");
    expect(image).toMatchObject({ mimeType: "image/png", width: 400, height: 200, bytes: png.length });
    checkPng(png, 400, 200);
  });

  test("with Accept: image/png answers the bytes, the receipt in X-PAYMENT-RESPONSE", async () => {
    const { res } = await payFor("/api/x402/social/image", { title: "Raw", width: 300, height: 150, theme: "light" }, { accept: "image/png" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-payment-response")).toBeTruthy();
    checkPng(Buffer.from(await res.arrayBuffer()), 300, 150);
  });

  test("titles in Cyrillic, Greek, Chinese and Arabic are drawn with their own glyphs", async () => {
    // Words of the same lengths: drawn as replacement marks (or boxes) the two cards would be identical.
    const card = async (title: string) => {
      const { res } = await payFor("/api/x402/social/image", { title, width: 300, height: 150 }, { accept: "image/png" });
      return checkPng(Buffer.from(await res.arrayBuffer()), 300, 150);
    };
    const [one, two] = [await card("Привет κόσμε 你好 مرحبا"), await card("Ответы γνώση 知识 معرفة")];
    expect(one.data.equals(two.data)).toBe(false);
  });

  test("a card for a wiki page of a public free brain; a paid brain's page is 404; slug needs brainId", async () => {
    const brainId = await newBrain(rig.server);
    await expectJson(await rig.server.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { visibility: "public" } }), 200);
    const { source } = await addText(rig.server, brainId, "Amazon rainforest", RAINFOREST);
    await waitForSource(rig.server, brainId, source.id);
    const slug = (await pagesOf(rig.server, brainId))[0]!.slug;
    const { res } = await payFor("/api/x402/social/image", { brainId, slug, width: 600, height: 315 });
    checkPng(Buffer.from((await expectJson(res, 200)).image.base64, "base64"), 600, 315);

    const paid = await newPaidBrain(rig.server, { priceAtomic: "1000", payTo: newAccount().address });
    const paidSlug = (await pagesOf(rig.server, paid))[0]!.slug;
    expect((await rig.server.api("/api/x402/social/image", { method: "POST", json: { brainId: paid, slug: paidSlug }, key: null })).status).toBe(404);
    expect((await expectJson(await rig.server.api("/api/x402/social/image", { method: "POST", json: { slug }, key: null }), 422)).error.field).toBe("brainId");
    expect((await expectJson(await rig.server.api("/api/x402/social/image", { method: "POST", json: {}, key: null }), 422)).error.field).toBe("title");
  });
});

describe("POST /api/x402/clips/render", () => {
  test("renders a looping GIF with the frames paid for, quoting the page", async () => {
    const brainId = await newBrain(rig.server);
    await expectJson(await rig.server.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { visibility: "public" } }), 200);
    const { source } = await addText(rig.server, brainId, "Amazon rainforest", RAINFOREST);
    await waitForSource(rig.server, brainId, source.id);
    const slug = (await pagesOf(rig.server, brainId))[0]!.slug;

    const { res, gained } = await payFor("/api/x402/clips/render", { brainId, slug, frames: 6, width: 240, height: 135 });
    const body = await expectJson(res, 200);
    expect(body.payment).toMatchObject({ settled: true, amount: "6000" });
    expect(await gained()).toBe(6000n);
    expect(body.quotes.length).toBeGreaterThan(0);
    expect(RAINFOREST).toContain(body.quotes[0]);
    const gif = decodeGif(Buffer.from(body.gif.base64, "base64"));
    expect(gif).toMatchObject({ width: 240, height: 135, loops: true });
    expect(gif.frames).toHaveLength(6);
    expect(body.gif).toMatchObject({ mimeType: "image/gif", frames: 6, width: 240, height: 135 });
    expect(new Set(gif.frames.map((f) => Buffer.from(f.pixels).toString("base64"))).size).toBe(6); // every frame differs

    const raw = await payFor("/api/x402/clips/render", { brainId, slug, frames: 3 }, { accept: "image/gif" });
    expect(raw.res.headers.get("content-type")).toBe("image/gif");
    expect(decodeGif(new Uint8Array(await raw.res.arrayBuffer())).frames).toHaveLength(3);
  });

  test("private brains and paid brains are 404 before any quote", async () => {
    const privateBrain = await newBrain(rig.server);
    const { source } = await addText(rig.server, privateBrain, "Amazon rainforest", RAINFOREST);
    await waitForSource(rig.server, privateBrain, source.id);
    const slug = (await pagesOf(rig.server, privateBrain))[0]!.slug;
    expect((await rig.server.api("/api/x402/clips/render", { method: "POST", json: { brainId: privateBrain, slug }, key: null })).status).toBe(404);
    const paid = await newPaidBrain(rig.server, { priceAtomic: "1000", payTo: newAccount().address });
    const paidSlug = (await pagesOf(rig.server, paid))[0]!.slug;
    expect((await rig.server.api("/api/x402/clips/render", { method: "POST", json: { brainId: paid, slug: paidSlug }, key: null })).status).toBe(404);
  });
});

/** A PNG that an independent decoder reads at the size asked, with something drawn on its background. */
function checkPng(png: Buffer, width: number, height: number): PNG {
  const image = PNG.sync.read(png);
  expect([image.width, image.height]).toEqual([width, height]);
  const colours = new Set<number>();
  for (let i = 0; i < image.data.length; i += 4) colours.add(image.data.readUInt32BE(i));
  expect(colours.size).toBeGreaterThan(8); // gradient and anti-aliased text, not a blank fill
  return image;
}
