// Pages titled in Cyrillic, CJK, Arabic (RTL), Greek and mixed scripts get slugs in their own letters, and
// every route that takes or returns a slug works with them over real HTTP: the page GET/PUT/revisions
// routes (percent-encoded path segments, either hex case, NFD input), [[slug]] links and backlinks, the
// graph's `around`, answers' citation links (percent-encoded URLs), MCP page tools and brain names. A title
// of symbols or emoji only still gets the safe fallback; bad encodings are a clear 400.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connectMcp, type McpSession } from "../mcp/support";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

const SOURCES = {
  cyrillic: ["Пётр Чайковский", "Пётр Чайковский родился в Воткинске в 1840 году. Композитор написал балет «Лебединое озеро»."],
  cjk: ["東京タワー", "東京タワーは東京都港区芝公園にある電波塔である。高さは333メートルで、1958年に完成した。"],
  arabic: ["القاهرة الكبرى", "القاهرة الكبرى هي أكبر مدينة في مصر وتقع على ضفاف نهر النيل."],
  greek: ["Αθήνα", "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και μία από τις αρχαιότερες πόλεις."],
  mixed: ["Tokyo 東京 — Токио", "Tokyo, also written 東京 and Токио, is the capital of Japan."],
  emoji: ["🚀🔥 ✨", "Rockets and fire make a bright display over the harbour."],
} as const;
const EXPECTED = {
  cyrillic: "пётр-чайковский",
  cjk: "東京タワー",
  arabic: "القاهرة-الكبرى",
  greek: "αθήνα",
  mixed: "tokyo-東京-токио",
  emoji: "page",
} as const;

let s: TestServer;
let brainId: string;
const sourceIds: Record<string, string> = {};
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Мир");
  for (const [name, [title, content]] of Object.entries(SOURCES)) {
    const { source } = await addText(s, brainId, title, content);
    sourceIds[name] = source.id;
    expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  }
});
afterAll(() => s.close());

const path = (slug: string, base = "/api/v1/brains") => `${base}/${brainId}/pages/${encodeURIComponent(slug)}`;
const getPage = async (slug: string, base?: string) => (await expectJson(await s.api(path(slug, base)), 200)).page;

describe("slugs in the title's own script", () => {
  test("each source page is listed under its script's slug; a symbols-only title falls back to `page`", async () => {
    const { pages } = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?limit=200`), 200);
    const bySource = new Map(pages.map((p: any) => [p.sourceId, p.slug]));
    for (const [name, slug] of Object.entries(EXPECTED)) expect(bySource.get(sourceIds[name])).toBe(slug);
  });

  test("GET by percent-encoded slug on both surfaces, upper- or lower-case hex, NFD input; the page's html links are percent-encoded", async () => {
    for (const [name, slug] of Object.entries(EXPECTED)) {
      for (const base of ["/api/v1/brains", "/api/brains"]) {
        const page = await getPage(slug, base);
        expect(page).toMatchObject({ slug, title: SOURCES[name as keyof typeof SOURCES][0], kind: "source" });
      }
    }
    const lower = encodeURIComponent(EXPECTED.cyrillic).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${lower}`), 200)).page.slug).toBe(EXPECTED.cyrillic);
    // "ё" decomposed (е + U+0308), as some clients send it: the same page.
    const nfd = encodeURIComponent(EXPECTED.cyrillic.normalize("NFD"));
    expect(nfd).not.toBe(encodeURIComponent(EXPECTED.cyrillic));
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${nfd}`), 200)).page.slug).toBe(EXPECTED.cyrillic);
    // The browser view of a page answers HTML for the same encoded path.
    const html = await s.api(path(EXPECTED.arabic), { headers: { accept: "text/html" } });
    expect(html.status).toBe(200);
    expect(await html.text()).toContain("القاهرة الكبرى");
  });

  test("bad paths: malformed percent-encoding is 400 invalid_path; an unknown Unicode slug, a slash or NUL is 404", async () => {
    for (const bad of ["%E0%A4%A", "%zz", "%D0"]) {
      const body = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${bad}`), 400);
      expect(body.error.code).toBe("invalid_path");
    }
    for (const missing of [encodeURIComponent("Пётр Чайковский"), encodeURIComponent("несуществующая"), "%2F", "a%00b", encodeURIComponent("[[x]]")]) {
      expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${missing}`), 404)).error.code).toBe("not_found");
    }
    expect((await expectJson(await s.api(`${path("несуществующая")}/revisions`), 404)).error.code).toBe("not_found");
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/graph?around=${encodeURIComponent("несуществующая")}`), 404)).error.code).toBe("not_found");
  });
});

describe("links, edits, graph and answers with Unicode slugs", () => {
  test("PUT by encoded slug: [[slug]] and [[slug|label]] links to Cyrillic, CJK and Arabic pages are derived, rendered as encoded links, and backlinked", async () => {
    const markdown = `Greek page linking [[${EXPECTED.cyrillic}]], [[${EXPECTED.cjk}|Tokyo Tower]] and [[ ${EXPECTED.arabic.normalize("NFD")} ]] and [[нет-такой]].`;
    const { page } = await expectJson(await s.api(path(EXPECTED.greek), { method: "PUT", json: { markdown, title: "Αθήνα (edited)" } }), 200);
    expect(page).toMatchObject({ slug: EXPECTED.greek, edited: true, revision: 2 });
    expect(page.links).toEqual([EXPECTED.cyrillic, EXPECTED.cjk, EXPECTED.arabic]);
    for (const target of [EXPECTED.cyrillic, EXPECTED.cjk, EXPECTED.arabic]) {
      expect(page.html).toContain(`href="/api/v1/brains/${brainId}/pages/${encodeURIComponent(target)}"`);
      expect((await getPage(target)).backlinks).toContain(EXPECTED.greek);
    }
    expect(page.html).toContain(">Пётр Чайковский</a>"); // plain [[slug]] shows the page's title
    expect(page.html).toContain(">Tokyo Tower</a>");
    expect(page.html).toContain("нет-такой"); // a missing target stays text
    expect(page.html).not.toContain(encodeURIComponent("нет-такой"));
    const { revisions } = await expectJson(await s.api(`${path(EXPECTED.greek, "/api/brains")}/revisions`), 200);
    expect(revisions.map((r: any) => r.revision)).toEqual([2, 1]);
    // Bad edits on a Unicode slug: empty markdown 422, unknown slug 404.
    expect((await expectJson(await s.api(path(EXPECTED.greek), { method: "PUT", json: { markdown: " " } }), 422)).error.field).toBe("markdown");
    expect((await expectJson(await s.api(path("άγνωστη"), { method: "PUT", json: { markdown: "x" } }), 404)).error.code).toBe("not_found");
  });

  test("the graph: nodes and edges carry the slugs; `around` takes an encoded slug at depth 1–3 on both surfaces", async () => {
    const whole = await expectJson(await s.api(`/api/v1/brains/${brainId}/graph`), 200);
    expect(whole.edges).toContainEqual({ from: EXPECTED.greek, to: EXPECTED.cjk });
    const greek = whole.nodes.find((n: any) => n.slug === EXPECTED.greek);
    expect(greek.degree).toBe(4); // three existing targets and one missing one
    for (const base of ["/api/v1/brains", "/api/brains"]) {
      for (const depth of [1, 2, 3]) {
        const g = await expectJson(await s.api(`${base}/${brainId}/graph?around=${encodeURIComponent(EXPECTED.cjk)}&depth=${depth}`), 200);
        const slugs = g.nodes.map((n: any) => n.slug);
        expect(slugs).toEqual(expect.arrayContaining([EXPECTED.cjk, EXPECTED.greek]));
        if (depth >= 2) expect(slugs).toEqual(expect.arrayContaining([EXPECTED.cyrillic, EXPECTED.arabic]));
        else expect(slugs).not.toContain(EXPECTED.arabic);
      }
    }
  });

  test("answers: v1 citation URLs and markdown links are percent-encoded and open the page; unversioned keeps [[slug]] and links it in HTML", async () => {
    const v1 = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "Где родился Пётр Чайковский?" } }), 200);
    const cited = v1.citations.find((c: any) => c.slug === EXPECTED.cyrillic);
    expect(cited.url).toBe(`${s.url}${path(EXPECTED.cyrillic)}`);
    expect(v1.answer).toContain(`](${cited.url})`);
    expect((await expectJson(await s.api(new URL(cited.url).pathname), 200)).page.slug).toBe(EXPECTED.cyrillic);
    const plain = await expectJson(await s.api(`/api/brains/${brainId}/ask`, { method: "POST", json: { question: "東京タワーの高さは?" } }), 200);
    expect(plain.answerMd).toContain(`[[${EXPECTED.cjk}]]`);
    expect(plain.retrievedSlugs).toContain(EXPECTED.cjk);
    expect(plain.answerHtml).toContain(`pages/${encodeURIComponent(EXPECTED.cjk)}"`);
  });

  test("MCP: read_page, page_links and wiki_graph take and return Unicode slugs", async () => {
    const mcp: McpSession = await connectMcp(s.url, s.key);
    try {
      const read = await mcp.call("read_page", { brainId, slug: EXPECTED.arabic });
      expect(read.isError).toBeFalsy();
      expect(read.structuredContent.page).toMatchObject({ slug: EXPECTED.arabic, url: `${s.url}${path(EXPECTED.arabic)}` });
      const links = await mcp.call("page_links", { brainId, slug: EXPECTED.cyrillic });
      expect(links.structuredContent.backlinks).toContain(EXPECTED.greek);
      const graph = await mcp.call("wiki_graph", { brainId, around: EXPECTED.greek, depth: 1 });
      expect(graph.structuredContent.nodes.map((n: any) => n.slug)).toEqual(expect.arrayContaining([EXPECTED.greek, EXPECTED.cjk, EXPECTED.arabic, EXPECTED.cyrillic]));
      const missing = await mcp.call("read_page", { brainId, slug: "ничего" });
      expect(missing.structuredContent.error.code).toBe("not_found");
    } finally {
      await mcp.close();
    }
  });
});

describe("brain slugs", () => {
  test("follow the same rule: letters of any script, `brain` for a symbols-only name, unique per owner", async () => {
    const create = async (name: string) => (await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name } }), 201)).brain;
    expect((await create("Мой мозг")).slug).toBe("мой-мозг");
    expect((await create("МОЙ МОЗГ!")).slug).toBe("мой-мозг-2");
    expect((await create("知識ベース")).slug).toBe("知識ベース");
    expect((await create("🧠🧠")).slug).toBe("brain");
    expect((await create("✨")).slug).toBe("brain-2");
    const renamed = await expectJson(await s.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { name: "Κόσμος" } }), 200);
    expect(renamed.brain.slug).toBe("κόσμος");
    const { brains } = await expectJson(await s.api("/api/brains"), 200);
    expect(brains.map((b: any) => b.slug)).toEqual(expect.arrayContaining(["мой-мозг", "知識ベース", "κόσμος"]));
  });
});
