// The `thin` rule and the extractive answer's citations, on hand-made evidence (no server).
import { describe, expect, test } from "bun:test";
import { weighEvidence, type Evidence, type EvidenceFeatures, type ScoredSentence } from "../../src/modules/answer/evidence";
import { extractiveAnswer } from "../../src/modules/answer/extractive";
import { GENERATOR_GATE, isThin, THIN_MODEL, thinScore, type ThinModel } from "../../src/modules/answer/thin";

const features = (over: Partial<EvidenceFeatures>): EvidenceFeatures => ({
  pages: 3, lexicalStrength: 1, coverage: 0.5, ownCoverage: 0.3, pageCoverage: 0.6, typedCoverage: 0.5, typed: false, cosine: null,
  windowCoverage: 0.5, focusCoverage: 0.3, bigramCoverage: 0, heaviestMissing: 0.5, termCount: 4, typedOwnCoverage: 0.3,
  topOwnCoverage: 0.3, firstOwnCoverage: 0.3, firstCoverage: 0.5, topCoverage: 0.5, rankedOwnCoverage: 0.3, completeRankedOwnCoverage: 0.3,
  firstFocusCoverage: 0.3, firstWindowOwnCoverage: 0.3, titleShare: 0.3, topicShare: 0.3, askedRankedOwnCoverage: 0.3,
  flatRankedOwnCoverage: 0.3, typedRankedOwnCoverage: 0.3, secondPageScore: 0.5, ...over,
});

describe("thin", () => {
  const model: ThinModel = { bias: 1, weights: { coverage: -1, firstOwnCoverage: -2 } };
  test("thin when the log-odds of \"no answer\" are positive: bias plus each weighed feature", () => {
    expect(thinScore(features({ coverage: 0.5, firstOwnCoverage: 0.3 }), model)).toBeCloseTo(1 - 0.5 - 0.6);
    expect(isThin(features({ coverage: 0.5, firstOwnCoverage: 0.3 }), model)).toBe(false);
    expect(isThin(features({ coverage: 0.5, firstOwnCoverage: 0.2 }), model)).toBe(true);
  });

  test("no pages is always thin", () => {
    expect(isThin(features({ pages: 0, coverage: 1, firstOwnCoverage: 1 }), model)).toBe(true);
    expect(isThin(features({ pages: 0, coverage: 1 }), GENERATOR_GATE)).toBe(true);
  });

  test("the shipped bar: more of the question covered never makes an answer thin", () => {
    for (const weight of Object.values(THIN_MODEL.weights)) expect(weight).toBeLessThanOrEqual(0);
    for (const weight of Object.values(GENERATOR_GATE.weights)) expect(weight).toBeLessThanOrEqual(0);
    expect(isThin(features({ coverage: 1, rankedOwnCoverage: 1, completeRankedOwnCoverage: 1 }))).toBe(false);
    expect(isThin(features({ coverage: 0, rankedOwnCoverage: 0, completeRankedOwnCoverage: 0 }))).toBe(true);
  });

  test("the gate in front of a model is looser than the extractive bar", () => {
    // A question half covered by a sentence with its title, but barely by any sentence's own words: the
    // extractive answerer says thin, the model still reads it.
    const onTopic = features({ coverage: 0.5, rankedOwnCoverage: 0.1, completeRankedOwnCoverage: 0.1, ownCoverage: 0.1 });
    expect(isThin(onTopic)).toBe(true);
    expect(isThin(onTopic, GENERATOR_GATE)).toBe(false);
    expect(isThin(features({ coverage: 0.05 }), GENERATOR_GATE)).toBe(true);
  });
});

describe("evidence counts a page's sentences at its retrieval score", () => {
  const page = (pageId: number, title: string, markdown: string, score: number) =>
    ({ pageId, brainId: "b", sourceId: `s${pageId}`, slug: `p${pageId}`, title, markdown, updatedAt: 0, score, lexical: score, cosine: null }) as const;
  const retrieval = (pages: ReturnType<typeof page>[]) => ({
    query: "How deep is the harbour at the old quay?",
    terms: ["deep", "harbour", "old", "quay"],
    mode: "lexical" as const,
    pages,
    stats: { pageCount: pages.length, documentFrequency: new Map<string, number>() },
  });
  const answering = "The harbour is nine metres deep at the old quay.";

  test("the same answering sentence is answered on the best page and thin on a far-down one", () => {
    const best = retrieval([page(1, "Harbour", answering, 1), page(2, "Market", "Fish is sold on Saturdays.", 0.4)]);
    const far = retrieval([page(2, "Market", "Fish is sold on Saturdays.", 1), page(1, "Harbour", answering, 0.1)]);
    const onTop = weighEvidence(best.query, best, best.stats).features;
    const below = weighEvidence(far.query, far, far.stats).features;
    expect(onTop.rankedOwnCoverage).toBeGreaterThan(0.9);
    expect(below.rankedOwnCoverage).toBeLessThan(0.15);
    // The plain best-sentence coverage cannot tell the two apart.
    expect(below.ownCoverage).toBeCloseTo(onTop.ownCoverage);
    expect(isThin(onTop)).toBe(false);
    expect(isThin(below)).toBe(true);
  });

  test("a question only its page title answers is thin for the extractive answerer, not for the model gate", () => {
    const r = retrieval([page(1, "Old Quay Harbour", "Boats moor here in winter.", 1)]);
    const f = weighEvidence(r.query, r, r.stats).features;
    expect(f.coverage).toBeGreaterThan(0.5);
    expect(isThin(f)).toBe(true);
    expect(isThin(f, GENERATOR_GATE)).toBe(false);
  });

  test("an infobox flattened into a sentence is no evidence for thin; a short line or a table row of numbers still is", () => {
    // Mostly numbers and symbols, it holds "old" and "quay" and "deep" by chance, and says nothing of the harbour.
    const infobox = "Old Quay Coordinates : 40 ° 46 ′ 27 '' N 73 ° 59 ′ 08 '' W / 40.77417 ; - 73.98556 deep harbour district Established 1871";
    const junk = retrieval([page(1, "Harbour district", infobox, 1)]);
    const j = weighEvidence(junk.query, junk, junk.stats).features;
    expect(j.ownCoverage).toBeGreaterThan(0.9);
    expect(j.completeRankedOwnCoverage).toBe(0);
    expect(isThin(j)).toBe(true);
    // A table flattened into a passage: a quarter of its tokens numbers or symbols, hardly a "the" or "of".
    const flattened = "Quay Depth Opened Old quay deep harbour 9 1990 North quay 11 2004 Fish dock 7 1971 West pier 5 1968";
    const table = retrieval([page(1, "Harbour depths", flattened, 1)]);
    expect(isThin(weighEvidence(table.query, table, table.stats).features)).toBe(true);
    // A paragraph listing names holds no symbols: prose, however few its function words.
    const names = retrieval([page(1, "Harbour", "Old quay, deep harbour moorings: Aurora, Bellwether, Calloway, Dunmore, Evenstar, Farrow, Galway, Harrow.", 1)]);
    expect(isThin(weighEvidence(names.query, names, names.stats).features)).toBe(false);
    // A label with a number or two is short: prose by this measure.
    const label = retrieval([page(1, "Harbour", "Old quay harbour depth: 9 m (30 ft) at low tide, deep.", 1)]);
    expect(isThin(weighEvidence(label.query, label, label.stats).features)).toBe(false);
    // A table row is a statement however many numbers it holds.
    const rows = "| Quay | Depth (m) | 1990 | 2000 | 2010 | 2020 |\n|---|---|---|---|---|---|\n| Old quay, deep harbour | 9 | 9.5 | 10 | 10.5 | 11 |";
    const row = retrieval([page(1, "Harbour depths", rows, 1)]);
    expect(isThin(weighEvidence(row.query, row, row.stats).features)).toBe(false);
  });
});

describe("a sentence on another subject than the question's counts for less when one on it was retrieved", () => {
  const page = (pageId: number, title: string, markdown: string, score: number) =>
    ({ pageId, brainId: "b", sourceId: `s${pageId}`, slug: `p${pageId}`, title, markdown, updatedAt: 0, score, lexical: score, cosine: null }) as const;
  const question = "Who gained fame for her actions during the American Civil War?";
  const retrieval = (pages: ReturnType<typeof page>[]) => ({
    query: question,
    terms: ["gained", "fame", "actions", "american", "civil", "war"],
    mode: "lexical" as const,
    pages,
    stats: { pageCount: 300, documentFrequency: new Map<string, number>() },
  });
  // A page on another subject matching a few of the question's words by chance (as the ClapNQ calibration half's
  // "Chinese fire drill" did this question), and the page on its subject, which does not say who.
  const chance = page(1, "Chinese fire drill", "It was commonly used by Americans during the civil war in Korea.", 1);
  const subject = page(2, "Women in the American Civil War", "Many women served as nurses, cooks and laundresses in army camps.", 0.9);
  const featuresOf = (pages: ReturnType<typeof page>[]) => weighEvidence(question, retrieval(pages), retrieval(pages).stats).features;

  test("the chance match answers alone, and is thin beside the page on the question's subject", () => {
    const alone = featuresOf([chance]);
    const beside = featuresOf([chance, subject]);
    expect(alone.completeRankedOwnCoverage).toBeGreaterThan(0.309);
    expect(isThin(alone)).toBe(false);
    expect(beside.completeRankedOwnCoverage).toBeCloseTo(0.7 * alone.completeRankedOwnCoverage);
    expect(isThin(beside)).toBe(true);
    // What the answer quotes is unchanged: only the evidence for `thin` weighs the subject.
    expect(weighEvidence(question, retrieval([chance, subject]), retrieval([chance]).stats).sentences[0]!.page.title).toBe("Chinese fire drill");
  });

  test("a heading naming the question's subject puts its section on it, whatever the page's title", () => {
    const handbook = page(1, "Reading list", "## The American Civil War\n\nIt was commonly used by Americans during the civil war in Korea.", 1);
    expect(featuresOf([handbook, subject]).completeRankedOwnCoverage).toBeCloseTo(featuresOf([handbook]).completeRankedOwnCoverage);
  });

  test("an answer on the question's subject is not counted less", () => {
    const answering = page(2, "Women in the American Civil War", "Clara Barton gained fame for her actions as a nurse during the war.", 0.9);
    const f = featuresOf([chance, answering]);
    expect(f.completeRankedOwnCoverage).toBeGreaterThan(0.6);
    expect(isThin(f)).toBe(false);
  });
});

describe("candidate features (eval-calibrate only)", () => {
  const page = (pageId: number, title: string, markdown: string, score: number) =>
    ({ pageId, brainId: "b", sourceId: `s${pageId}`, slug: `p${pageId}`, title, markdown, updatedAt: 0, score, lexical: score, cosine: null }) as const;
  const retrieval = (query: string, terms: string[], pages: ReturnType<typeof page>[]) => ({
    query,
    terms,
    mode: "lexical" as const,
    pages,
    stats: { pageCount: pages.length, documentFrequency: new Map<string, number>() },
  });
  // The page's topic (its title, "Oriel", named in most sentences) against what is asked ("found", "wreck").
  const oriel = page(
    1,
    "The Oriel",
    "The Oriel was a barque from Quebec. The Oriel carried timber. The Oriel sailed in March 1881. The Oriel struck the reef at night.",
    1,
  );
  const lighthouse = page(2, "Skerry Point Lighthouse", "The lighthouse was first lit in 1859.", 0.4);

  test("an ask leaves them at 0; eval-calibrate computes them", () => {
    const r = retrieval("Where was the wreck of the Oriel found?", ["wreck", "oriel", "found"], [oriel, lighthouse]);
    const ask = weighEvidence(r.query, r, r.stats).features;
    expect([ask.titleShare, ask.topicShare, ask.askedRankedOwnCoverage, ask.flatRankedOwnCoverage, ask.secondPageScore]).toEqual([0, 0, 0, 0, 0]);
    const full = weighEvidence(r.query, r, r.stats, { candidates: true }).features;
    expect(full.secondPageScore).toBeCloseTo(0.4);
    expect(full.titleShare).toBeGreaterThan(0);
    expect(full.topicShare).toBeGreaterThanOrEqual(full.titleShare);
  });

  test("the asked-for part: a sentence naming only the page's topic covers none of it", () => {
    const r = retrieval("Where was the wreck of the Oriel found?", ["wreck", "oriel", "found"], [oriel, lighthouse]);
    const topicOnly = weighEvidence(r.query, r, r.stats, { candidates: true }).features;
    expect(topicOnly.rankedOwnCoverage).toBeGreaterThan(0);
    expect(topicOnly.askedRankedOwnCoverage).toBe(0);
    const answering = page(1, "The Oriel", `${oriel.markdown} Divers found the wreck of the Oriel in 1990.`, 1);
    const r2 = retrieval(r.query, r.terms, [answering, lighthouse]);
    expect(weighEvidence(r2.query, r2, r2.stats, { candidates: true }).features.askedRankedOwnCoverage).toBeCloseTo(1);
  });

  test("flat coverage counts a common word as much as a name; typed coverage needs the asked-for kind", () => {
    const r = retrieval("When did the Oriel sail?", ["oriel", "sail"], [page(1, "Ships", "The Oriel was a barque. The Oriel sailed in March 1881.", 1)]);
    const f = weighEvidence(r.query, r, r.stats, { candidates: true }).features;
    expect(f.flatRankedOwnCoverage).toBeCloseTo(1);
    expect(f.typedRankedOwnCoverage).toBeCloseTo(1);
    const undated = retrieval(r.query, r.terms, [page(1, "Ships", "The Oriel was a barque that could sail well.", 1)]);
    const g = weighEvidence(undated.query, undated, undated.stats, { candidates: true }).features;
    expect(g.rankedOwnCoverage).toBeCloseTo(1);
    expect(g.typedRankedOwnCoverage).toBe(0);
  });
});

describe("extractive answer", () => {
  const page = (slug: string) => ({ slug }) as any;
  /** Evidence of these sentences alone (no list, table or missing name asked about). */
  const of = (sentences: ScoredSentence[]) => ({ sentences, unmentioned: [] as string[], action: null }) as Evidence;
  const sentence = (slug: string, pageRank: number, score: number, text: string, index = 0, whole = text): ScoredSentence =>
    ({ page: page(slug), pageRank, index, text, whole, coverage: 0, ownCoverage: 0, completeCoverage: 0, typeFound: null, score, defines: 0 }) as ScoredSentence;
  test("cites the best-ranked page even when its sentence scores lower", () => {
    const evidence = of([sentence("b", 1, 1, "Best sentence."), sentence("a", 0, 0.3, "From the top page.")]);
    expect(extractiveAnswer(evidence, (p) => p.slug)).toBe("Best sentence. [[b]] From the top page. [[a]]");
  });

  test("sentences of one page come in reading order with one citation after the run", () => {
    const evidence = of([sentence("a", 0, 1, "The keepers rowed out.", 3), sentence("a", 0, 0.9, "A storm wrecked the Oriel.", 1), sentence("b", 1, 0.85, "Eleven were saved.", 0)]);
    expect(extractiveAnswer(evidence, (p) => p.slug)).toBe("A storm wrecked the Oriel. The keepers rowed out. [[a]] Eleven were saved. [[b]]");
  });
  test("duplicates and near-duplicates are dropped, from any page", () => {
    const evidence = of([
      sentence("a", 0, 1, "The main telescope is a 2.4 metre reflector.", 0),
      sentence("b", 1, 0.95, "The main telescope is a 2.4 metre reflector.", 0),
      sentence("a", 0, 0.9, "The main telescope is a 2.4 metre reflector!", 2),
      sentence("a", 0, 0.85, "It was built in 1998.", 1),
    ]);
    expect(extractiveAnswer(evidence, (p) => p.slug)).toBe("The main telescope is a 2.4 metre reflector. It was built in 1998. [[a]]");
  });
  test("a piece of an overlong sentence is quoted as the whole sentence, never cut", () => {
    const whole = `The survey found ${"many small and large craters, ".repeat(30)}and one telescope`;
    const evidence = of([sentence("a", 0, 1, whole.slice(0, 600), 0, whole), sentence("a", 0, 0.9, whole.slice(600), 0, whole)]);
    expect(extractiveAnswer(evidence, (p) => p.slug)).toBe(`${whole}. [[a]]`);
  });
});
