// Sources ingested in batches: one write per batch must keep slugs unique and links right.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, pagesOf, waitForSource } from "../support/sources";

let s: TestServer;
const site = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req) =>
    new URL(req.url).pathname === "/ok"
      ? new Response("<html><head><title>Pilot Station</title></head><body><article><p>The pilot station is open all night.</p></article></body></html>", { headers: { "content-type": "text/html" } })
      : new Response("gone", { status: 404 }),
});
beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_JOB_RETRY_BASE_MS: "20", BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}` });
});
afterAll(() => {
  site.stop(true);
  return s.close();
});

const batch = async (brainId: string, sources: unknown[]) =>
  (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/batch`, { method: "POST", json: { sources } }), 200)).results as any[];
const settle = (brainId: string, results: any[]) => Promise.all(results.map((r) => waitForSource(s, brainId, r.source.id)));
/** Inward links are added just after a source is ready (while its job finishes): wait for them. */
async function pageOnceItHas(brainId: string, slug: string, text: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = (await pagesOf(s, brainId)).find((p) => p.slug === slug)!;
    if (page.markdown.includes(text) || Date.now() > deadline) return page;
    await Bun.sleep(25);
  }
}

describe("batched ingestion", () => {
  test("sources with the same title in one batch get distinct slugs", async () => {
    const brainId = await newBrain(s);
    const results = await batch(brainId, [1, 2, 3].map((i) => ({ title: "Harbour Rules", content: `Rule ${i}: keep the channel clear.` })));
    const ready = await settle(brainId, results);
    expect(ready.every((r) => r.status === "ready")).toBe(true);
    // Source pages only: "Rule", named by all three, earns a concept page as it would across batches.
    expect((await pagesOf(s, brainId)).filter((p) => p.source_id).map((p) => p.slug).sort()).toEqual(["harbour-rules", "harbour-rules-2", "harbour-rules-3"]);
    // A later source with that title takes the next free slug, found with one range read.
    const [later] = await batch(brainId, [{ title: "Harbour Rules", content: "Rule 4: no wake." }]);
    await settle(brainId, [later]);
    expect((await pagesOf(s, brainId)).map((p) => p.slug)).toContain("harbour-rules-4");
  });

  test("sources of one title posted one by one (batches in flight at once) each keep their page and a distinct slug", async () => {
    const brainId = await newBrain(s);
    const posted: any[] = [];
    for (let i = 0; i < 40; i++) {
      const content = `Paragraph ${i}. The Rhine flows past Basel, Strasbourg and Cologne to the North Sea. Boats carry coal, grain and steel along it; the delta at Rotterdam splits into the Waal and the Lek. `.repeat(3);
      posted.push((await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "Rhine", content } }), 201)).source);
    }
    const ready = await Promise.all(posted.map((p: any) => waitForSource(s, brainId, p.id)));
    expect(ready.every((r) => r.status === "ready" && r.pageCount === 1)).toBe(true);
    const sourcePages = (await pagesOf(s, brainId)).filter((p) => p.source_id);
    // Every source has its own page (a slug planned by two batches at once used to lose one source's page).
    expect(new Set(sourcePages.map((p) => p.source_id)).size).toBe(40);
    expect(new Set(sourcePages.map((p) => p.slug)).size).toBe(40);
  });

  test("a page links to earlier pages whose titles it mentions, not to deleted ones, and earlier pages link back", async () => {
    const brainId = await newBrain(s);
    const first = await batch(brainId, [
      { title: "Tidal Locks", content: "Tidal locks hold boats level while the tide falls." },
      { title: "Mooring Buoys", content: "Mooring buoys are yellow." },
    ]);
    await settle(brainId, first);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${first[1].source.id}`, { method: "DELETE" }), 204).catch(() => undefined);
    const second = await batch(brainId, [{ title: "Harbour Guide", content: "Boats wait at the tidal locks; the mooring buoys were removed." }]);
    await settle(brainId, second);
    const pages = await pagesOf(s, brainId);
    const guide = pages.find((p) => p.slug === "harbour-guide")!;
    expect(guide.markdown).toContain("[[tidal-locks]]");
    expect(guide.markdown).not.toContain("[[mooring-buoys]]");
    // Inward: a later page titled as something the guide mentions is linked from the guide.
    const third = await batch(brainId, [{ title: "Waiting Boats", content: "Boats queue in the outer basin." }]);
    await settle(brainId, third);
    const guideAfter = (await pagesOf(s, brainId)).find((p) => p.slug === "harbour-guide")!;
    expect(guideAfter.markdown).not.toContain("[[waiting-boats]]"); // "waiting boats" is not a phrase of the guide
    const fourth = await batch(brainId, [{ title: "Boats Wait", content: "Boats wait for the tide." }]);
    await settle(brainId, fourth);
    expect((await pageOnceItHas(brainId, "harbour-guide", "[[boats-wait]]")).markdown).toContain("[[boats-wait]]");
  });

  test("one source that cannot be processed fails alone; the rest of its batch is ready", async () => {
    const brainId = await newBrain(s);
    const results = await batch(brainId, [
      { title: "Fine", content: "Lighthouses warn ships." },
      { kind: "link", url: `http://127.0.0.1:${site.port}/gone` },
      { kind: "link", url: `http://127.0.0.1:${site.port}/ok` },
      { title: "Also fine", content: "Pilots guide ships in." },
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const settled = await settle(brainId, results);
    expect(settled.map((r) => r.status)).toEqual(["ready", "failed", "ready", "ready"]);
    expect(settled[1].error).toContain("404");
    expect((await pagesOf(s, brainId)).map((p) => p.title).sort()).toEqual(["Also fine", "Fine", "Pilot Station"]);
  });
});
