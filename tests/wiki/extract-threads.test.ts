// Concept extraction on worker threads (src/concepts/extract-pool.ts): the same concepts as in the main
// thread, the brain's facts about them read on the thread's own connection, a wiki that does not depend on
// where extraction ran, and the fallbacks when a thread cannot run.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createExtractPool, QUEUED_PER_THREAD } from "../../src/concepts/extract-pool";
import { extractConcepts } from "../../src/concepts/extract";
import { conceptFacts, type ReadRows } from "../../src/concepts/facts";
import { findInwardLinks, findLateLinks } from "../../src/links/inward-links";
import { linkOutward } from "../../src/links/outward-links";
import { TitleIndex } from "../../src/links/title-index";
import { applyInwardLinks } from "../../src/jobs/ingest-source/write-pages";
import { createLogger } from "../../src/lib/log";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

const TEXTS = [
  { title: "Halvard Bridge history", text: "Engineer Mira Castellan designed the Halvard Bridge for the Northern Rail Company. Its steel arch opened in 1931." },
  { title: "Early life", text: "Mira Castellan was born in Velsmouth, a harbour town. Castellan trained at the Zeiss works before she turned to bridges." },
  { title: "Пётр Чайковский", text: "Пётр Ильич Чайковский — русский композитор. Marie Curie visited Warsaw twice." },
  { title: "Empty of names", text: "it was cold and then it was not." },
];
const pagesOf = (t: (typeof TEXTS)[number]) => [{ slug: "p", title: t.title, markdown: t.text }];

describe("the extraction pool", () => {
  const warnings: string[] = [];
  const log = createLogger("warn", (line) => warnings.push(line));

  test("threads give exactly what the main thread gives, for many requests at once", async () => {
    const pool = createExtractPool(2, log);
    try {
      expect(pool.threads).toBe(2);
      const results = await Promise.all([...TEXTS, ...TEXTS, ...TEXTS].map((t) => pool.extract(pagesOf(t), t.title)));
      results.forEach((r, i) => {
        const t = TEXTS[i % TEXTS.length]!;
        expect(r).toEqual(extractConcepts(pagesOf(t), t.title));
      });
      expect(results[0]!.map((c) => c.key)).toContain("mira-castellan");
    } finally {
      pool.close();
    }
    expect(warnings).toEqual([]);
  });

  test("a request of lower priority overtakes the ones waiting for a thread, and every answer is still right", async () => {
    const pool = createExtractPool(1, log);
    const answered: string[] = [];
    const lookup = { brainId: "b", sourceId: "s", ownSlugs: ["p"], outward: false };
    const ask = (label: string, t: (typeof TEXTS)[number], priority: number) =>
      pool.extractWithFacts(pagesOf(t), t.title, lookup, priority).then((r) => {
        answered.push(label);
        expect(r.concepts).toEqual(extractConcepts(pagesOf(t), t.title));
        expect(r.facts).toBeNull(); // no database file: the caller reads the facts
      });
    try {
      const later = Array.from({ length: 3 * QUEUED_PER_THREAD }, (_, i) => ask(`later-${i}`, TEXTS[i % TEXTS.length]!, 1));
      const first = ask("first", TEXTS[0]!, 0);
      await Promise.all([...later, first]);
      expect(answered).toHaveLength(3 * QUEUED_PER_THREAD + 1);
      // The thread holds QUEUED_PER_THREAD requests at once; "first" goes right after those, long before the last.
      expect(answered.indexOf("first")).toBeLessThanOrEqual(QUEUED_PER_THREAD);
      expect(answered.filter((l) => l !== "first")).toEqual(Array.from({ length: 3 * QUEUED_PER_THREAD }, (_, i) => `later-${i}`)); // equal priorities: in order
    } finally {
      pool.close();
    }
  });

  test("closing the pool rejects the requests still waiting for a thread", async () => {
    const pool = createExtractPool(1, log);
    const outcomes = Array.from({ length: 2 * QUEUED_PER_THREAD }, () => pool.extract(pagesOf(TEXTS[1]!), TEXTS[1]!.title).then(() => "answered", (e: Error) => e.message));
    pool.close();
    const settled = await Promise.all(outcomes);
    expect(settled.every((o) => o === "shutting down")).toBe(true);
  });

  test("size 0 extracts in this thread", async () => {
    const pool = createExtractPool(0, log);
    expect(pool.threads).toBe(0);
    const t = TEXTS[1]!;
    expect(await pool.extract(pagesOf(t), t.title)).toEqual(extractConcepts(pagesOf(t), t.title));
    pool.close();
  });

  test("a thread that cannot start: its requests are answered in this thread and no new thread is tried", async () => {
    const broken = join(tempDir(), "broken-worker.ts");
    writeFileSync(broken, "throw new Error('this worker cannot start');\n");
    const seen: string[] = [];
    const pool = createExtractPool(1, createLogger("warn", (line) => seen.push(line)), broken);
    const t = TEXTS[0]!;
    expect(await pool.extract(pagesOf(t), t.title)).toEqual(extractConcepts(pagesOf(t), t.title));
    expect(pool.threads).toBe(0);
    expect(seen.join("\n")).toContain("could not start");
    expect(await pool.extract(pagesOf(t), t.title)).toEqual(extractConcepts(pagesOf(t), t.title)); // inline from now on
    pool.close();
  });

  test("a thread that dies after working is replaced, and what it held is answered", async () => {
    // A worker that answers once, then dies on its second message.
    const flaky = join(tempDir(), "flaky-worker.ts");
    writeFileSync(
      flaky,
      `let n = 0;
       self.onmessage = (e) => {
         if (n++ > 0) throw new Error("died");
         self.postMessage({ id: e.data.id, json: JSON.stringify({ concepts: [] }) });
       };\n`,
    );
    const seen: string[] = [];
    const pool = createExtractPool(1, createLogger("warn", (line) => seen.push(line)), flaky);
    const t = TEXTS[0]!;
    expect(await pool.extract(pagesOf(t), t.title)).toEqual([]); // the flaky worker's own answer
    expect(await pool.extract(pagesOf(t), t.title)).toEqual(extractConcepts(pagesOf(t), t.title)); // answered here after it died
    expect(seen.join("\n")).toContain("starting another");
    expect(pool.threads).toBe(1);
    pool.close();
  });

  test("after close nothing waits on a thread", async () => {
    const pool = createExtractPool(1, log);
    pool.close();
    expect(pool.threads).toBe(0);
    const t = TEXTS[0]!;
    expect(await pool.extract(pagesOf(t), t.title)).toEqual(extractConcepts(pagesOf(t), t.title));
  });
});

/**
 * A thread reads each task in one read transaction: once answered, it holds no snapshot, so a checkpoint can
 * copy the whole log and reset it (a snapshot left open would keep it growing). The server's checkpoint
 * thread may hold the log for a moment (busy for that try): a snapshot left open stays busy on every try.
 */
async function expectNoReaderLeft(s: TestServer) {
  await s.ctx.database.client.execute("CREATE TABLE IF NOT EXISTS reader_probe (x)");
  await s.ctx.database.client.execute("INSERT INTO reader_probe VALUES (1)");
  let busy = 1;
  for (let attempt = 0; attempt < 20 && busy !== 0; attempt++) {
    if (attempt > 0) await Bun.sleep(20);
    busy = Number((await s.ctx.database.client.execute("PRAGMA wal_checkpoint(TRUNCATE)")).rows[0]!.busy);
  }
  expect(busy).toBe(0);
}

/** The server the brains below are made on (one each, so no test sees another's pages), closed at the end; and a logger that prints nothing. */
let shared: Promise<TestServer> | undefined;
afterAll(async () => {
  await (await shared)?.close();
});
const log = createLogger("warn", () => undefined);

/** A new brain, on the shared server, of the first two texts and a page "Velsmouth". */
async function harbourBrain(name: string) {
  const s = await (shared ??= startTestServer());
  const brainId = await newBrain(s, name);
  for (const t of [...TEXTS.slice(0, 2), { title: "Velsmouth", text: "Velsmouth is a harbour town on the north coast." }]) {
    const { source } = await addText(s, brainId, t.title, t.text);
    expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  }
  const read: ReadRows = async (text, args) => (await s.ctx.database.client.execute({ sql: text, args })).rows as unknown as Record<string, unknown>[];
  return { s, brainId, read };
}

describe("facts read in a thread", () => {
  test("a thread's own read connection gives the facts the main connection gives; no file or a bad one: null, read by the caller", async () => {
    // A brain that knows Mira Castellan (a concept page), the Zeiss works (an alias) and a page "velsmouth".
    const { s, brainId, read } = await harbourBrain("Facts");
    const t = { title: "Later", text: "Mira Castellan returned to Velsmouth and the Zeiss works in 1950." };
    const lookup = { brainId, sourceId: "src_new", ownSlugs: ["later"], outward: false };
    const onMain = await conceptFacts(read, brainId, "src_new", extractConcepts(pagesOf(t), t.title), ["later"]);
    expect(onMain.elsewhere.find((f) => f.slug === "mira-castellan")).toMatchObject({ page: 1 });
    expect(onMain.pageSlugs).toContain("velsmouth");

    const pool = createExtractPool(1, log, undefined, s.ctx.database.file);
    try {
      const threaded = await pool.extractWithFacts(pagesOf(t), t.title, lookup);
      expect(threaded.concepts).toEqual(extractConcepts(pagesOf(t), t.title));
      expect(threaded.facts).toEqual(onMain);
      expect(threaded.markdowns).toBeNull(); // not asked
      // Asked, the thread links the pages to the titles they name, as the main connection's index does.
      const linked = await pool.extractWithFacts(pagesOf(t), t.title, { ...lookup, outward: true });
      const onMainLinked = await linkOutward(new TitleIndex(read), brainId, "src_new", pagesOf(t));
      expect(linked.markdowns).toEqual(onMainLinked.pages.map((p) => p.markdown));
      expect(linked.markdowns![0]).toContain("returned to [[velsmouth|Velsmouth]]");
      await expectNoReaderLeft(s);
    } finally {
      pool.close();
    }
    for (const file of [null, join(tempDir(), "missing", "brainbox.db")]) {
      const other = createExtractPool(1, log, undefined, file);
      try {
        const result = await other.extractWithFacts(pagesOf(t), t.title, { ...lookup, outward: true });
        expect(result.facts).toBeNull();
        expect(result.markdowns).toBeNull();
        expect(result.concepts).toEqual(extractConcepts(pagesOf(t), t.title));
      } finally {
        other.close();
      }
    }
  });
});

describe("inward title links read in a thread", () => {
  test("the thread finds the pages the main connection finds; applied, each page lists every new title once", async () => {
    const { s, brainId, read } = await harbourBrain("Inward");
    const fresh = [
      { slug: "harbour-town", title: "Harbour Town" }, // named by "Early life" and "Velsmouth"
      { slug: "north-coast", title: "North Coast" }, // named by "Velsmouth"
      { slug: "steel-arch", title: "Steel Arch" }, // named by "Halvard Bridge history"
      { slug: "tram-depot", title: "Tram Depot" }, // named nowhere
    ];
    const onMain = await findInwardLinks(read, brainId, "src_new", fresh);
    const slugOf = async (id: number) => String((await read("SELECT slug FROM pages WHERE id = ?", [id]))[0]!.slug);
    const named = await Promise.all(onMain.map(async (l) => `${await slugOf(l.from)} → ${l.to}`));
    // "Early life" and "Velsmouth" name a harbour town, but already link the concept of that slug: no new link.
    expect(named.sort()).toEqual(["halvard-bridge-history → steel-arch", "velsmouth → north-coast"]);

    const pool = createExtractPool(1, log, undefined, s.ctx.database.file);
    try {
      expect(await pool.inwardLinks({ brainId, sourceId: "src_new", pages: fresh })).toEqual(onMain);
      await expectNoReaderLeft(s);
    } finally {
      pool.close();
    }
    // No database file, or no thread: null, and the caller reads them.
    const remote = createExtractPool(1, log, undefined, null);
    expect(await remote.inwardLinks({ brainId, sourceId: "src_new", pages: fresh })).toBeNull();
    remote.close();

    // Applied twice (a retry), and after another title was linked meanwhile: every link once, none lost.
    expect(await applyInwardLinks(s.ctx.db, brainId, onMain)).toBe(2);
    const velsmouth = onMain.find((l) => l.to === "north-coast")!.from;
    expect(await applyInwardLinks(s.ctx.db, brainId, [{ from: velsmouth, to: "lighthouse", title: "Lighthouse" }, ...onMain])).toBe(1);
    const markdown = String((await read("SELECT markdown FROM pages WHERE id = ?", [velsmouth]))[0]!.markdown);
    // Titles the page names are linked where it names them; one it does not name goes on the Related line.
    expect(markdown).toContain("Velsmouth is a [[harbour-town|harbour town]] on the [[north-coast|north coast]].");
    expect(markdown.match(/^Related: .*$/m)![0]).toBe("Related: [[lighthouse]]");
    const links = await read("SELECT to_slug FROM page_links WHERE from_page_id = ? ORDER BY to_slug", [velsmouth]);
    expect(links.map((l) => l.to_slug)).toEqual(expect.arrayContaining(["harbour-town", "lighthouse", "north-coast"]));
    // Linked now: found no more.
    expect(await findInwardLinks(read, brainId, "src_new", fresh)).toEqual([]);
  });

  test("late links: a source prepared while another was written links to its title once both are written", async () => {
    const { s, brainId, read } = await harbourBrain("Late");
    const seen = Number((await read("SELECT max(id) AS seen FROM pages", []))[0]!.seen);
    // "Wharf notes" was prepared (its outward links looked at titles up to `seen`) while "Harbour Pilots" was
    // written: its page names that title, and nothing linked the two.
    const pilots = await addText(s, brainId, "Harbour Pilots", "Pilots guide ships into Velsmouth.");
    expect((await waitForSource(s, brainId, pilots.source.id)).status).toBe("ready");
    const notes = await addText(s, brainId, "Wharf notes", "The harbour pilots met every ship.");
    expect((await waitForSource(s, brainId, notes.source.id)).status).toBe("ready");
    const page = { slug: "wharf-notes", title: "Wharf notes", markdown: "The harbour pilots met every ship." };
    const id = Number((await read("SELECT id FROM pages WHERE slug = 'wharf-notes'", []))[0]!.id);

    const late = await findLateLinks(read, new TitleIndex(read), brainId, notes.source.id, [page], seen);
    expect(late).toEqual([{ from: id, to: "harbour-pilots", title: "Harbour Pilots" }]);
    // The same on a thread; from a later look (nothing written since), or for a note (no look): none.
    const pool = createExtractPool(1, log, undefined, s.ctx.database.file);
    try {
      expect(await pool.inwardLinks({ brainId, sourceId: notes.source.id, pages: [page], outwardSeen: seen })).toEqual(late);
      await expectNoReaderLeft(s);
    } finally {
      pool.close();
    }
    const now = Number((await read("SELECT max(id) AS now FROM pages", []))[0]!.now);
    expect(await findLateLinks(read, new TitleIndex(read), brainId, notes.source.id, [page], now)).toEqual([]);
    expect(await findLateLinks(read, new TitleIndex(read), brainId, notes.source.id, [page])).toEqual([]);
    // Applied to the page as the race left it (written unlinked): linked where it names the title.
    await s.ctx.database.client.execute({ sql: "UPDATE pages SET markdown = ? WHERE id = ?", args: [page.markdown, id] });
    await s.ctx.database.client.execute({ sql: "DELETE FROM page_links WHERE from_page_id = ?", args: [id] });
    expect(await applyInwardLinks(s.ctx.db, brainId, late)).toBe(1);
    expect(String((await read("SELECT markdown FROM pages WHERE id = ?", [id]))[0]!.markdown)).toBe("The [[harbour-pilots|harbour pilots]] met every ship.");
    expect(await read("SELECT to_slug FROM page_links WHERE from_page_id = ?", [id])).toEqual([{ to_slug: "harbour-pilots" }] as any);
  });
});

describe("the wiki does not depend on where extraction ran", () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  async function wikiOf(threads: string) {
    const s = await startTestServer({ BRAINBOX_NLP_THREADS: threads });
    servers.push(s);
    const brainId = await newBrain(s, `Threads ${threads}`);
    for (const t of TEXTS) {
      const { source } = await addText(s, brainId, t.title, t.text);
      expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
    }
    const graph = await expectJson(await s.api(`/api/v1/brains/${brainId}/graph`), 200);
    const castellan = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/mira-castellan`), 200);
    return { nodes: graph.nodes.map((n: any) => `${n.kind}:${n.slug}`).sort(), edges: graph.edges.length, castellan: castellan.page.markdown };
  }

  test("BRAINBOX_NLP_THREADS 0 and 2 build the same pages, concept pages and links", async () => {
    const inline = await wikiOf("0");
    const threaded = await wikiOf("2");
    expect(threaded).toEqual(inline);
    expect(inline.nodes).toContain("concept:mira-castellan");
  });
});
