// The filter of slugs a brain might know (src/concepts/known-keys.ts), which lets an extraction thread skip
// the facts' index probes for concepts named nowhere else: never a false negative for a row it has read,
// caught up by rowid (a few rows a query) as sources are added, rebuilt larger past its capacity, and facts
// read through it equal to facts read without it.
import { afterAll, describe, expect, test } from "bun:test";
import { extractConcepts } from "../../src/concepts/extract";
import { conceptFacts, type ReadRows } from "../../src/concepts/facts";
import { KnownConceptSlugs, StringBloom } from "../../src/concepts/known-keys";
import { mulberry32 } from "../support/random";
import { startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

const randomWords = (seed: number, n: number) => {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => Math.floor(random() * 36 ** 4).toString(36)).join("-"));
};

describe("the string Bloom filter", () => {
  test("every added string is found; strings never added are found rarely (false positives near 1%)", () => {
    const filter = new StringBloom(20_000);
    const added = randomWords(1, 20_000);
    for (const w of added) filter.add(w);
    expect(added.every((w) => filter.has(w))).toBe(true);
    const addedSet = new Set(added);
    const others = randomWords(2, 20_000).filter((w) => !addedSet.has(w));
    const falsePositives = others.filter((w) => filter.has(w)).length / others.length;
    expect(falsePositives).toBeLessThan(0.03);
    // Unicode and near-identical strings are told apart.
    const small = new StringBloom(100);
    small.add("чайковский");
    small.add("marie-curie");
    expect(small.has("чайковский")).toBe(true);
    expect(["чайковскии", "marie-curiE", "marie-curi", "arie-curie", ""].filter((w) => small.has(w))).toEqual([]);
  });
});

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** Every slug the filter must know: pages, mention rows' concepts and lone rows' concepts of the brain. */
async function slugsOf(read: ReadRows, brainId: string): Promise<string[]> {
  const pages = await read("SELECT slug FROM pages WHERE brain_id = ?", [brainId]);
  const mentions = await read("SELECT DISTINCT concept AS slug FROM concept_mentions WHERE brain_id = ?", [brainId]);
  const lone = await read("SELECT DISTINCT m.value ->> 0 AS slug FROM concept_lone l CROSS JOIN json_each(l.mentions) m WHERE l.brain_id = ?", [brainId]);
  return [...pages, ...mentions, ...lone].map((r) => String(r.slug));
}

describe("the slugs a brain might know", () => {
  test("knows every page, mention and lone concept; catches up with new sources; rebuilt past its capacity; facts through it are the same", async () => {
    const s = await startTestServer();
    servers.push(s);
    const brainId = await newBrain(s, "Known slugs");
    const other = await newBrain(s, "Other brain");
    const add = async (brain: string, title: string, text: string) => {
      const { source } = await addText(s, brain, title, text);
      expect((await waitForSource(s, brain, source.id)).status).toBe("ready");
    };
    await add(brainId, "Halvard Bridge", "Engineer Mira Castellan designed the Halvard Bridge for the Northern Rail Company. Its steel arch opened in 1931.");
    await add(brainId, "Early life", "Mira Castellan was born in Velsmouth, a harbour town. Castellan trained at the Zeiss works before she turned to bridges.");
    await add(other, "Elsewhere", "The Oskarsholm lighthouse keepers rowed out to the Oriel.");
    let reads = 0;
    let readsFromStart = 0;
    const read: ReadRows = async (sql, args) => {
      reads++;
      if (args[1] === 0) readsFromStart++;
      return (await s.ctx.database.client.execute({ sql, args })).rows as unknown as Record<string, unknown>[];
    };

    // A capacity of 4 slugs: the filter is rebuilt (four times larger) as it catches up, and loses nothing;
    // rows are read 3 at a time.
    const known = new KnownConceptSlugs(read, { firstCapacity: 4, readPage: 3 });
    const first = await known.of(brainId);
    const before = await slugsOf(read, brainId);
    expect(before).toContain("mira-castellan");
    expect(before.length).toBeGreaterThan(8);
    expect(before.filter((slug) => !first(slug))).toEqual([]);
    // Rebuilt larger: three tables read from the start, then again once past the capacity.
    expect(readsFromStart).toBe(6);
    expect(reads).toBeGreaterThan(12); // pages of 3 rows
    expect(randomWords(3, 200).filter(first).length).toBeLessThan(10);

    // A source added later is read from where the filter stopped.
    await add(brainId, "Lighthouse", "The Tarrow lighthouse keeper Ansel Hobbe rowed out to the wreck of the Oriel.");
    const after = await known.of(brainId);
    const now = await slugsOf(read, brainId);
    expect(now.length).toBeGreaterThan(before.length);
    expect(now.filter((slug) => !after(slug))).toEqual([]);

    // The facts read through the filter are the facts read without it; a text naming only new names is
    // read with one query (its aliases), not four.
    for (const text of ["Mira Castellan met Ansel Hobbe at the Zeiss works in Velsmouth.", "Quentin Vasselot founded the Drumlow glassworks."]) {
      const concepts = extractConcepts([{ slug: "later", title: "Later", markdown: text }], "Later");
      expect(concepts.length).toBeGreaterThan(0);
      const plain = await conceptFacts(read, brainId, "src_new", concepts, ["later"]);
      const filter = await known.of(brainId);
      reads = 0;
      const filtered = await conceptFacts(read, brainId, "src_new", concepts, ["later"], filter);
      expect(filtered).toEqual(plain);
      expect(reads).toBe(text.startsWith("Quentin") ? 1 : 3);
    }
  });
});
