// The fitted link ranker (issue 58): a question's second fact sits on a page the first page links to (or that
// links to it), which BM25 alone ranks low; the ranker follows the wiki's links to it, and a page that only
// shares the question's words does not outrank it. Pages are written through the real ingest, so the links
// are the wiki's own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { answerService } from "../../src/modules/answer";
import { candidateFeatures, FEATURES, type CandidatePage } from "../../src/retrieval/ranker-features";
import { rankerScore, rankerWeights, type Explained } from "../../src/retrieval/ranker";
import weightsFile from "../../src/retrieval/ranker-weights.json";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

let s: TestServer;

async function brainOf(pages: Record<string, string>): Promise<string> {
  const brain = await newBrain(s);
  const ids: string[] = [];
  for (const [title, content] of Object.entries(pages)) ids.push((await addText(s, brain, title, content)).source.id);
  for (const id of ids) await waitForSource(s, brain, id);
  return brain;
}

const contextTitles = async (brain: string, query: string) =>
  (await expectJson(await s.api(`/api/v1/brains/${brain}/context`, { method: "POST", json: { query, limit: 10 } }), 200)).pages.map((p: any) => p.title as string);
const bm25Titles = async (brain: string, query: string) =>
  (await answerService(s.ctx).retriever.retrieve({ brains: [{ id: brain }], query, limit: 10, expand: false })).pages.map((p) => p.title);

beforeAll(async () => {
  s = await startTestServer();
}, 60_000);
afterAll(() => s.close());

describe("the weights file", () => {
  test("loads and names the features the ranker computes, in its order", () => {
    expect(weightsFile.features).toEqual([...FEATURES]);
    expect(rankerWeights().model).toBe(weightsFile.model as "logistic" | "gbdt");
    // A page the question's words rank first and the best page links to scores higher, all else equal.
    const base = FEATURES.map(() => 0);
    const linked = base.map((_, i) => (["lexical", "top", "outLink", "mention"].includes(FEATURES[i]!) ? 1 : 0));
    expect(rankerScore(linked)).toBeGreaterThan(rankerScore(base));
  });

  test("a file that does not match the features is refused with a clear error", () => {
    expect(() => rankerWeights({ model: "logistic", features: ["lexical"], bias: 0, weights: [1] })).toThrow(/fit-ranker/);
    expect(() => rankerWeights({ model: "logistic", features: [...FEATURES], bias: 0, weights: FEATURES.map(() => Number.NaN) })).toThrow(/fit-ranker/);
    expect(() => rankerWeights({ model: "logistic", features: [...FEATURES].reverse(), bias: 0, weights: FEATURES.map(() => 1) })).toThrow(/fit-ranker/);
    expect(() => rankerWeights({ model: "gbdt", features: [...FEATURES], trees: [] })).toThrow(/fit-ranker/);
    expect(() => rankerWeights({ model: "gbdt", features: [...FEATURES], trees: [{ f: FEATURES.length, t: 0.5, l: 0, r: 1 }] })).toThrow(/fit-ranker/);
    expect(() => rankerWeights({ model: "gbdt", features: [...FEATURES], trees: [{ f: 0, t: 0.5, l: 0, r: Number.NaN }] })).toThrow(/fit-ranker/);
  });

  test("a tree ensemble's score is the sigmoid of its leaves' sum, each tree split on its feature", () => {
    const model = { model: "gbdt" as const, features: [...FEATURES], trees: [{ f: 0, t: 0.5, l: -1, r: 1 }, { f: 2, t: 0.2, l: 0, r: { f: 9, t: 0.1, l: 0.5, r: 2 } }] };
    const f = (lexical: number, outLink: number, mention: number) => FEATURES.map((n) => (n === "lexical" ? lexical : n === "outLink" ? outLink : n === "mention" ? mention : 0));
    const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
    expect(rankerScore(f(0.4, 0, 0), model)).toBeCloseTo(sigmoid(-1), 12);
    expect(rankerScore(f(0.5, 0.3, 0), model)).toBeCloseTo(sigmoid(-1 + 0.5), 12);
    expect(rankerScore(f(0.9, 0.3, 0.8), model)).toBeCloseTo(sigmoid(1 + 2), 12);
  });
});

describe("the link features", () => {
  const page = (id: number, title: string, text: string, score: number, rank: number | null, brainId = "b"): CandidatePage => ({ id, brainId, kind: "source", title, text: `${title} ${text}`.toLowerCase(), written: `${title} ${text}`, score, rank, linkedBy: 0 });
  const at = (name: (typeof FEATURES)[number]) => FEATURES.indexOf(name);

  test("hub: a page many pages link to is told from one few do, bounded in [0, 1)", () => {
    const pages = new Map([
      [1, page(1, "Rollo", "Rollo led the Vikings.", 1, 0)],
      [2, { ...page(2, "Normandy", "Normandy is a region.", 0.5, 1), linkedBy: 200 }],
      [3, { ...page(3, "Rouen", "Rouen is a city.", 0.4, 2), linkedBy: 2 }],
    ]);
    const f = candidateFeatures(pages, [1], [], ["rollo"], [1]);
    expect(f.get(1)![at("hub")]).toBe(0);
    expect(f.get(3)![at("hub")]).toBeGreaterThan(0);
    expect(f.get(2)![at("hub")]).toBeGreaterThan(0.9);
    expect(f.get(2)![at("hub")]).toBeLessThan(1);
  });

  test("a link to another name is a hop; a link between pages of one name (an article's parts) is none", () => {
    const pages = new Map([
      [1, page(1, "Normans", "The Normans came from Normandy. Their leader was Rollo.", 1, 0)],
      [2, page(2, "Normans", "The Normans conquered England in 1066.", 0.8, 1)],
      [3, page(3, "Normans (people)", "Normans in Sicily.", 0.5, 2)],
      [4, page(4, "Rollo", "Rollo was a Viking who became the first ruler of Normandy.", 0, null)],
    ]);
    const edges = [
      { via: 1, id: 2, kind: "back" as const },
      { via: 1, id: 3, kind: "out" as const },
      { via: 1, id: 4, kind: "out" as const },
    ];
    const f = candidateFeatures(pages, [1, 2], edges, ["rollo", "viking"], [2, 3]);
    // Same name, with or without a qualifier: parts of one thing.
    for (const id of [2, 3]) for (const kind of ["outLink", "backLink", "adds"] as const) expect(f.get(id)![at(kind)]).toBe(0);
    expect(f.get(4)![at("outLink")]).toBe(1);
    // What Rollo's page says that the seed lacks ("viking"), weighted by the seed's score.
    expect(f.get(4)![at("adds")]).toBeCloseTo(3 / 5, 10);
    expect(f.get(4)![at("mention")]).toBe(1);
    for (const v of f.values()) for (const x of v) expect(x >= 0 && x <= 1).toBe(true);
  });

  test("a page is mentioned by its name as written, not by the common word its title also is", () => {
    const pages = new Map([
      [1, page(1, "Command reference", "tern ls lists files; add --recursive to list every level. tern doctor checks the configuration and the Changelog; the Tern Project makes it.", 1, 0)],
      [2, page(2, "Configuration", "tern reads its settings from a file.", 0.15, 1)],
      [3, page(3, "Changelog", "Fixed a crash.", 0.1, 2)],
      [4, page(4, "The Tern Project", "A group of volunteers.", 0.1, 3)],
    ]);
    const f = candidateFeatures(pages, [1, 2, 3, 4], [], ["list", "files", "recursive"], [1, 2, 3]);
    expect(f.get(2)![at("mention")]).toBe(0);
    expect(f.get(3)![at("mention")]).toBe(1);
    // A name keeps a capital, not every letter's case: "the Tern Project" names "The Tern Project".
    expect(f.get(4)![at("mention")]).toBe(1);
  });

  test("a page is novel by the question's words its brain's best page lacks: a look-alike of the best page adds nothing", () => {
    const pages = new Map([
      [1, page(1, "War of the Buttons (1994 film)", "War of the Buttons is a 1994 film directed by John Roberts.", 1, 0)],
      [2, page(2, "War of the Buttons (1962 film)", "War of the Buttons is a 1962 French film.", 0.9, 1)],
      [3, page(3, "John Roberts", "John Roberts is a British director, born in London.", 0, null)],
      // A brain set's advisor: its own best page is weighed against nothing, like the primary's.
      [4, page(4, "War of the Buttons", "The Buttons war, a novel.", 0.8, 2, "advisor")],
    ]);
    const terms = ["war", "buttons", "1994", "born"];
    const f = candidateFeatures(pages, [1], [{ via: 1, id: 3, kind: "out" }], terms, [1, 1, 2, 1]);
    expect(f.get(1)![at("novel")]).toBeCloseTo(4 / 5, 10);
    expect(f.get(2)![at("novel")]).toBe(0);
    expect(f.get(3)![at("novel")]).toBeCloseTo(1 / 5, 10);
    expect(f.get(4)![at("novel")]).toBeCloseTo(2 / 5, 10);
  });
});

describe("following links", () => {
  // Look-alikes share the question's words ("engineer", "born", "dam"); the page about the engineer the
  // question's dam names shares almost none of them.
  const DAMS = {
    "Yelland Dam": "Yelland Dam is a gravity dam on the river Tove in Devon, finished in 1889. Its engineer was Arthur Penrose.",
    "Arthur Penrose": "Arthur Penrose was an English builder of waterworks. Penrose came from Crowmarsh, where he was born in 1840, and died in Bath in 1911.",
    "Harrow Dam": "Harrow Dam is a dam on the river Exe. The dam engineer of Harrow Dam was born in Exeter; the engineer trained in Bristol.",
    "Harrow Dam 2": "Harrow Dam 2 is a second dam on the river Exe. The engineer of the dam was born in Tiverton, and another engineer was born in Crediton.",
    "Colne Dam": "Colne Dam is an earth dam. Its engineer was born in Colchester and the dam was finished by an engineer born in Ipswich.",
    "Yelland": "Yelland is a village in Devon on the estuary of the Taw, known for its power station.",
  };
  const QUESTION = "Where was the engineer of Yelland Dam born?";
  let dams: string;
  beforeAll(async () => {
    dams = await brainOf(DAMS);
  }, 120_000);

  test("the bridged page is reached and a look-alike does not outrank it", async () => {
    const bare = await bm25Titles(dams, QUESTION);
    const ranked = await contextTitles(dams, QUESTION);
    // BM25 alone puts the look-alikes first: what the links have to overcome.
    expect(bare.indexOf("Arthur Penrose") === -1 || bare.indexOf("Arthur Penrose") > bare.indexOf("Harrow Dam")).toBe(true);
    expect(ranked.slice(0, 2)).toContain("Yelland Dam");
    // With the brain's own IDF "born" (on four of six pages) weighs little, and the village the dam is named
    // after ("Yelland", linked from the dam's title) ranks second: the engineer comes right after it.
    expect(ranked.slice(0, 3)).toContain("Arthur Penrose");
    for (const lookAlike of ["Harrow Dam", "Harrow Dam 2", "Colne Dam"]) expect(ranked.indexOf("Arthur Penrose")).toBeLessThan(ranked.indexOf(lookAlike));
  });

  // The answer's page names the question's subject (a backlink); the subject's page does not name it.
  const WORKS = {
    "Kestrel Bridge": "Kestrel Bridge is an iron bridge over the river Tove, opened in 1901 with a span of 90 metres.",
    "Morrow Steelworks": "Morrow Steelworks was founded by Edith Carne in Leeds in 1870. Its yards made rails, boilers and girders for the north, and it built Kestrel Bridge.",
    "Tove Company": "The Tove Company built barges. The company was founded by boatmen, and the company built a bridge at Tove mill.",
    "Exe Company": "The Exe Company built bridges and the company built locks; it was founded in 1850 by a company of masons.",
    "Bridge company": "A bridge company builds bridges; many a bridge company was founded to build one bridge.",
  };
  const BACKLINK_QUESTION = "Who founded the company that built Kestrel Bridge?";
  let works: string;
  beforeAll(async () => {
    works = await brainOf(WORKS);
  }, 120_000);

  test("a backlinked answer page that BM25 ranks low is reached through its link, with what it adds", async () => {
    const bare = await bm25Titles(works, BACKLINK_QUESTION);
    expect(bare.indexOf("Morrow Steelworks")).toBeGreaterThan(1);
    const scored: Explained[] = [];
    const { pages } = await answerService(s.ctx).retriever.retrieve({ brains: [{ id: works }], query: BACKLINK_QUESTION, limit: 10, explain: scored });
    const morrow = pages.find((p) => p.title === "Morrow Steelworks")!;
    const kestrel = pages.find((p) => p.title === "Kestrel Bridge")!;
    const features = (id: number) => Object.fromEntries(FEATURES.map((name, i) => [name, scored.find((e) => e.pageId === id)!.features[i]!]));
    // Morrow Steelworks links to Kestrel Bridge: reached from that seed as a backlink, adding "founded" and
    // "company" that the bridge's page lacks; the bridge is reached from it the other way, and named by it.
    expect(features(morrow.pageId).backLink).toBeGreaterThan(0);
    expect(features(morrow.pageId).adds).toBeGreaterThan(0);
    expect(features(kestrel.pageId).outLink).toBeGreaterThan(0);
    expect(features(kestrel.pageId).mention).toBeGreaterThan(0);
    // The hub feature reads the pages linking to each page: the bridge is linked to, the steelworks is not.
    expect(features(kestrel.pageId).hub).toBeGreaterThan(0);
    expect(features(kestrel.pageId).hub).toBeLessThan(0.5);
    expect(features(morrow.pageId).hub).toBe(0);
    // Every page the ranker scored is returned in the model's order, after the page the words ranked first.
    const modelOrder = [...scored].sort((a, b) => b.score - a.score || a.pageId - b.pageId).map((e) => e.pageId);
    const first = pages[0]!.pageId;
    expect(pages.map((p) => p.pageId)).toEqual([first, ...modelOrder.filter((id) => id !== first)].slice(0, pages.length));
  });

  test("a question naming nothing in the brain, only stopwords, another script or no word gets an empty list or a clear error", async () => {
    for (const query of ["zzyzx qwertyuiop", "the of and", "日本語の質問"]) expect(await contextTitles(works, query)).toEqual([]);
    const res = await s.api(`/api/v1/brains/${works}/context`, { method: "POST", json: { query: "", limit: 10 } });
    expect(res.status).toBe(422);
    expect((await res.json()).error.code).toBe("invalid_request");
  });
});
