// The word-pair sketch (src/ingest/body-bigrams.ts) rules a title out only when no source page outside the
// new source can name it: checked against the link check itself, on a real database file, as pages arrive,
// across sketch rebuilds, and with the source's own pages taken away.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "../../src/db/client";
import { BodyBigrams } from "../../src/links/body-bigrams";
import { findInwardLinks } from "../../src/links/inward-links";
import { linkRelatedPages } from "../../src/links/wiki-links";
import type { ReadRows } from "../../src/db/read-rows";
import { currentDatabase } from "../support/migrations";

let db: Database;
let read: ReadRows;
let nextPage = 0;

beforeAll(async () => {
  db = await currentDatabase(["b1", "b2"]);
  read = async (sql, args) => (await db.client.execute({ sql, args })).rows as unknown as Record<string, unknown>[];
});
afterAll(() => db.close());

/** A source with one page per text (kind 'source' unless said). */
async function source(brainId: string, id: string, texts: string[], kind = "source") {
  await db.client.execute({ sql: "INSERT INTO sources (id, brain_id, type, title, status) VALUES (?, ?, 'text', ?, 'ready')", args: [id, brainId, id] });
  for (const markdown of texts) {
    const slug = `page-${++nextPage}`;
    await db.client.execute({
      sql: "INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown, search_text) VALUES (?, ?, ?, ?, ?, ?, ?)",
      args: [brainId, id, kind, slug, slug, markdown, markdown],
    });
  }
}

/** What the link check says: some page of the brain outside `sourceId` names `title`. */
async function named(brainId: string, sourceId: string, title: string): Promise<boolean> {
  const pages = (await read("SELECT slug, markdown FROM pages WHERE brain_id = ? AND kind = 'source' AND edited = 0 AND source_id != ?", [brainId, sourceId])) as {
    slug: string;
    markdown: string;
  }[];
  return pages.some((p) => (linkRelatedPages([{ slug: p.slug, title: p.slug, markdown: p.markdown }, { slug: "t", title, markdown: "" }]).get(p.slug) ?? []).includes("t"));
}

describe("word pairs of a brain's pages", () => {
  test("a title no other page names is ruled out; one named in any case, spacing or inside a link is kept", async () => {
    await source("b1", "s1", ["The Northern Lighthouse Keepers met at Velsmouth.", "Pilots of the [[harbour-pilots|Harbour  Pilots]] station sailed at dawn."]);
    await source("b1", "s2", ["ΛΌΓΟΣ σοφός was carved over the gate. Her µ-meter read 3."]);
    await source("b2", "s3", ["Southern Lighthouse Keepers of another brain."]);
    const pairs = new BodyBigrams(read);
    const test = await pairs.outside("b1", "s-new");
    const cases: [string, boolean][] = [
      ["Northern Lighthouse Keepers", true],
      ["northern   LIGHTHOUSE keepers", true],
      ["Harbour Pilots station", true],
      ["λόγος ΣΟΦΌΣ", true], // ς and σ are one letter to a case-insensitive pattern
      ["Μ-meter", true], // µ (micro sign) and μ (mu) too
      ["Lighthouse Northern", false],
      ["Southern Lighthouse Keepers", false], // another brain's page
      ["Velsmouth", true], // one word: never ruled out
    ];
    for (const [title, expected] of cases) {
      expect([title, test(title)]).toEqual([title, expected]);
      expect([title, await named("b1", "s-new", title)]).toEqual([title, expected]);
    }
  });

  test("the source's own pages do not count, pages written later do, and notes never do", async () => {
    const pairs = new BodyBigrams(read);
    // Only s1 names it: ruled out for s1 itself, kept for anyone else.
    expect((await pairs.outside("b1", "s1"))("Northern Lighthouse Keepers")).toBe(false);
    expect((await pairs.outside("b1", "s2"))("Northern Lighthouse Keepers")).toBe(true);
    await source("b1", "s4", ["A note on the Northern Lighthouse Keepers."], "note");
    expect((await pairs.outside("b1", "s1"))("Northern Lighthouse Keepers")).toBe(false);
    await source("b1", "s5", ["Minutes of the Northern Lighthouse Keepers, 1931."]);
    expect((await pairs.outside("b1", "s1"))("Northern Lighthouse Keepers")).toBe(true);
    expect(await named("b1", "s1", "Northern Lighthouse Keepers")).toBe(true);
  });

  test("a source counted lately has its own pages taken away without reading them again; one counted long ago or a long one, by reading them", async () => {
    await db.client.execute("INSERT INTO brains (id, account_id, name, slug) VALUES ('b4', 'acc', 'b4', 'b4')");
    const statements: string[] = [];
    const counting: ReadRows = (sql, args) => (statements.push(sql), read(sql, args));
    const ownReads = () => statements.filter((s) => /WHERE source_id = \?/.test(s)).length;
    // Pairs kept for 400 pairs at most (a source's pages: 200).
    const pairs = new BodyBigrams(counting, { keptPairs: 400 });
    await source("b4", "early", ["The Quiet Harbour Bell rang at noon."]);
    await pairs.outside("b4", "none"); // counts it
    // More pairs than the sketch keeps, since: the early source's pages must be read again.
    for (let i = 0; i < 100; i++) await source("b4", `filler-${i}`, [`Filler page ${i} of the harbour.`]);
    await source("b4", "late", ["Keepers of the Velsmouth Tide Gauge logged the surge.", "The Velsmouth Tide Gauge stood by the quay."]);
    statements.length = 0;
    const late = await pairs.outside("b4", "late");
    expect(ownReads()).toBe(0); // its pages came with the count
    expect(late("Velsmouth Tide Gauge")).toBe(false); // only it names them
    expect(late("Quiet Harbour Bell")).toBe(true);
    const early = await pairs.outside("b4", "early");
    expect(ownReads()).toBe(1);
    expect(early("Quiet Harbour Bell")).toBe(false);
    expect(early("Velsmouth Tide Gauge")).toBe(true);
    // A long document's pages (over 200 pairs) are not kept: read again, with the same verdict.
    await source("b4", "long", Array.from({ length: 70 }, (_, i) => (i === 40 ? "The Granary Ledger Book ends here." : `Part ${i} of the ledger.`)));
    statements.length = 0;
    const long = await pairs.outside("b4", "long");
    expect(ownReads()).toBe(1);
    expect(long("Granary Ledger Book")).toBe(false);
    expect((await pairs.outside("b4", "late"))("Granary Ledger Book")).toBe(true);
    // A page of "late" deleted after it was counted names nothing: taking its pairs away again keeps the verdict.
    await db.client.execute("DELETE FROM pages WHERE source_id = 'late' AND markdown LIKE 'Keepers%'");
    expect((await pairs.outside("b4", "late"))("Velsmouth Tide Gauge")).toBe(false);
    expect(await named("b4", "late", "Velsmouth Tide Gauge")).toBe(false);
    expect(await named("b4", "early", "Velsmouth Tide Gauge")).toBe(true);
  });

  test("never rules out a title a page names, through rebuilds of the sketch; rules out most titles no page names", async () => {
    // 3,000 pages of 40 words from 400: the sketch (sized for b3's 0 sources) is counted again several times.
    await db.client.execute("INSERT INTO brains (id, account_id, name, slug) VALUES ('b3', 'acc', 'b3', 'b3')");
    const vocabulary = Array.from({ length: 400 }, (_, i) => `w${(i * 7919) % 10007}x`);
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const texts: string[] = [];
    const pairs = new BodyBigrams(read);
    for (let s = 0; s < 60; s++) {
      const batch = Array.from({ length: 50 }, () => Array.from({ length: 40 }, () => vocabulary[random(400)]).join(" ") + ".");
      texts.push(...batch);
      await source("b3", `bulk-${s}`, batch);
      if (s % 20 === 0) await pairs.outside("b3", "none"); // read as pages arrive, as an import does
    }
    const test = await pairs.outside("b3", "none");
    // Three-word phrases taken from the pages: every one is kept.
    for (let k = 0; k < 300; k++) {
      const words = texts[random(texts.length)]!.replace(".", "").split(" ");
      const at = random(words.length - 3);
      expect(test(words.slice(at, at + 3).join(" "))).toBe(true);
    }
    // Three words no page holds together (made-up words): nearly all ruled out.
    let ruledOut = 0;
    for (let k = 0; k < 300; k++) if (!test(`q${k}a r${k}b s${k}c`)) ruledOut++;
    expect(ruledOut).toBeGreaterThan(270);
  });

  test("findInwardLinks finds the same links with the sketch as without it", async () => {
    await source("b1", "s6", ["The Velsmouth Harbour Board met the Northern Lighthouse Keepers twice."]);
    const pairs = new BodyBigrams(read);
    const fresh = [
      { slug: "nlk", title: "Northern Lighthouse Keepers" },
      { slug: "vhb", title: "Velsmouth Harbour Board" },
      { slug: "none", title: "Eastern Tide Tables" },
      { slug: "pilots", title: "Harbour Pilots" },
    ];
    const links = async (sourceId: string, withPairs: boolean) =>
      (await findInwardLinks(read, "b1", sourceId, fresh, withPairs ? pairs : undefined)).map((l) => `${l.from}→${l.to}`).sort();
    for (const sourceId of ["s-new", "s1", "s6"]) {
      const plain = await links(sourceId, false);
      expect(await links(sourceId, true)).toEqual(plain);
    }
    expect((await links("s-new", true)).length).toBeGreaterThanOrEqual(4);
  });
});
