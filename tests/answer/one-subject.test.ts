// A first brain on one subject: four short sources that all name the same lighthouse, engineer and
// workshop, alone in their server's index (term statistics are the whole index's). Its own words sit in half
// the pages or more, where BM25's classic IDF weighs them nothing: the page that matches them must still
// rank first, and a bridge question over two of the sources must be answered from both. Pages are written by
// the test; answers are checked for the fact and the pages they cite.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addTextsReady, newBrain } from "../support/sources";

const SOURCES: Record<string, string> = {
  "The Kestrel lighthouse":
    "The Kestrel lighthouse was designed by Ada Quill, an engineer from the Marren workshop. It stands above Port Salter harbour. The lamp was first lit in 1871.",
  "Ada Quill":
    "Ada Quill was born in Dunmore in 1832. She trained at the Marren workshop under Tobias Wren before designing lighthouses along the coast.",
  "Port Salter":
    "Port Salter harbour is a deep-water harbour on the north coast. Fishing boats and the Kestrel lighthouse keepers rely on it. The harbour was dredged in 1902.",
  "The Marren workshop":
    "The Marren workshop was an engineering firm in Dunmore founded by Tobias Wren. It built lamps, lenses and iron towers. Ada Quill worked there for twelve years.",
};

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Kestrel");
  await addTextsReady(s, brainId, SOURCES);
});
afterAll(() => s.close());

/** Asks a bridge question about the lighthouse's designer: answered, her name from the first source. */
async function askDesigner(question: string) {
  const body = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question } }), 200);
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("designed by Ada Quill");
  return body;
}

describe("a four-source brain on one subject", () => {
  test("the page naming the question's shared words ranks first, not at a millionth of the score", async () => {
    const body = await expectJson(
      await s.api(`/api/v1/brains/${brainId}/context`, { method: "POST", json: { query: "Who designed the Kestrel lighthouse?" } }),
      200,
    );
    expect(body.pages[0].slug).toBe("the-kestrel-lighthouse");
    expect(body.pages[0].score).toBe(1);
    // "Kestrel" is in two of the four pages and "lighthouse" in three: the other page naming both still scores
    // (pages keep the scores of the ranks they take, so the list's second score is the second match's).
    expect(body.pages.map((p: any) => p.slug)).toContain("port-salter");
    expect(body.pages[1].score).toBeGreaterThan(0.1);
  });

  test("a page names a person whose page came later: linked inline, as it would be had her page come first", async () => {
    const page = async (slug: string) => (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`), 200)).page;
    // Links into earlier pages are written once the new source is ready: waited for.
    let kestrel = await page("the-kestrel-lighthouse");
    for (const deadline = Date.now() + 20_000; !kestrel.markdown.includes("[[ada-quill") && Date.now() < deadline; await Bun.sleep(50))
      kestrel = await page("the-kestrel-lighthouse");
    expect(kestrel.markdown).toContain("designed by [[ada-quill|Ada Quill]]");
    expect(kestrel.markdown).toContain("above [[port-salter|Port Salter]] harbour");
    expect(kestrel.markdown).not.toMatch(/^Related: .*ada-quill/m);
    expect(kestrel.links).toEqual(expect.arrayContaining(["ada-quill", "port-salter"]));
    expect((await page("ada-quill")).backlinks).toContain("the-kestrel-lighthouse");
  });

  test("a bridge question (who designed it; where was that person born) is answered from both sources", async () => {
    const body = await askDesigner("Where was the designer of the Kestrel lighthouse born?");
    expect(body.answer).toContain("born in Dunmore");
    const cited = body.citations.map((c: any) => c.slug);
    expect(cited).toContain("the-kestrel-lighthouse");
    expect(cited).toContain("ada-quill");
  });

  test("a bridge question asked in other words than the second source's ('where does she come from'): the place, from the sentence about her", async () => {
    const body = await askDesigner("Where does the designer of the Kestrel lighthouse come from?");
    expect(body.answer).toContain("in Dunmore");
  });
});
