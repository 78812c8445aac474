// The `thin` rule and the extractive answer's citations, on hand-made evidence (no server).
import { describe, expect, test } from "bun:test";
import type { Evidence, EvidenceFeatures, ScoredSentence } from "../../src/modules/answer/evidence";
import { extractiveAnswer } from "../../src/modules/answer/extractive";
import { isThin, type ThinThresholds } from "../../src/modules/answer/thin";

const t: ThinThresholds = { minCoverage: 0, minOwnCoverage: 0.2, minOwnCoverageTyped: 0.4, minTypedCoverage: 0 };
const features = (over: Partial<EvidenceFeatures>): EvidenceFeatures => ({
  pages: 3, lexicalStrength: 1, coverage: 0.5, ownCoverage: 0.3, pageCoverage: 0.6, typedCoverage: 0.5, typed: false, cosine: null, ...over,
});

describe("thin", () => {
  test("a question asking for a kind of answer needs a sentence matching more of it", () => {
    expect(isThin(features({ typed: false }), t)).toBe(false);
    expect(isThin(features({ typed: true }), t)).toBe(true);
    expect(isThin(features({ typed: true, ownCoverage: 0.45 }), t)).toBe(false);
  });
  test("no pages is always thin", () => {
    expect(isThin(features({ pages: 0, ownCoverage: 1 }), t)).toBe(true);
  });
});

describe("extractive answer", () => {
  const page = (slug: string) => ({ slug }) as any;
  const sentence = (slug: string, pageRank: number, score: number, text: string): ScoredSentence =>
    ({ page: page(slug), pageRank, index: 0, text, coverage: 0, ownCoverage: 0, typeFound: null, score }) as ScoredSentence;
  test("cites the best-ranked page even when its sentence scores lower", () => {
    const evidence = { sentences: [sentence("b", 1, 1, "Best sentence."), sentence("a", 0, 0.3, "From the top page.")] } as Evidence;
    expect(extractiveAnswer(evidence, (p) => p.slug)).toBe("Best sentence. [[b]] From the top page. [[a]]");
  });
});
