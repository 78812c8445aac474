// The link ranker's fit is reproducible from the repository (issue 58): the committed weights are exactly the
// fit of the committed training rows, the fit does not depend on the rows' order, and the rows file is in
// the canonical form its writer gives. No server: the rows are data (scripts/ranker-rows.ts gathers them).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FEATURES } from "../../src/retrieval/ranker-features";
import { canonical, decodeRows, encodeRows, fitGbdt, fitLogistic, meanQuality, modelText, type Row } from "../../scripts/ranker-fit";
import { mulberry32 } from "../support/random";

const ROOT = join(import.meta.dir, "../..");
const file = readFileSync(join(ROOT, "scripts/ranker-training.jsonl.gz"));
const rows = decodeRows(file);

function shuffled<T>(xs: T[], seed: number): T[] {
  const random = mulberry32(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("the committed training rows", () => {
  test("cover every set the ranker is calibrated on, each row the ranker's features and a label", () => {
    expect(new Set(rows.map((r) => r.set))).toEqual(new Set(["2wiki", "musique", "ClapNQ", "SQuAD 2.0"]));
    for (const r of rows) {
      expect(r.features).toHaveLength(FEATURES.length);
      for (const x of r.features) expect(x >= 0 && x <= 1).toBe(true);
    }
    // Each question has a relevant page among its rows or none (a missed one), never only relevant ones.
    expect(rows.filter((r) => r.relevant).length).toBeGreaterThan(500);
    expect(rows.filter((r) => !r.relevant).length).toBeGreaterThan(rows.filter((r) => r.relevant).length);
  });

  test("are stored in the canonical form: decoding and encoding again gives the same bytes", () => {
    expect(Buffer.from(encodeRows(rows)).equals(file)).toBe(true);
    expect(Buffer.from(encodeRows(shuffled(rows, 7))).equals(file)).toBe(true);
  });
});

describe("the fit", () => {
  test("of the committed rows is the committed weights file, byte for byte", () => {
    const committed = readFileSync(join(ROOT, "src/retrieval/ranker-weights.json"), "utf8");
    const kind = JSON.parse(committed).model as "logistic" | "gbdt";
    expect(modelText(kind, rows)).toBe(committed);
  });

  test("gives the same bits whatever the rows' order", () => {
    const groups = new Set([...new Set(rows.map((r) => r.group))].slice(0, 60));
    const sample = rows.filter((r) => groups.has(r.group));
    const once = fitLogistic(sample);
    const again = fitLogistic(shuffled(sample, 42));
    expect(again.bias).toBe(once.bias);
    expect(again.weights).toEqual(once.weights);
    expect(canonical(shuffled(sample, 3))).toEqual(canonical(sample));
    expect(fitGbdt(shuffled(sample, 5)).model).toEqual(fitGbdt(sample).model);
  });

  test("learns what separates relevant pages on a small sample, and ties never flatter a scorer", () => {
    // Relevant pages have the first feature high; the second is noise.
    const random = mulberry32(1);
    const made: Row[] = Array.from({ length: 400 }, (_, i) => {
      // 40 questions of 10 pages, 3 of them relevant.
      const relevant = Math.floor(i / 40) % 4 === 0;
      return { set: i % 2 ? "a" : "b", group: `q${i % 40}`, relevant, features: [relevant ? 0.6 + 0.4 * random() : 0.5 * random(), random()] };
    });
    const model = fitLogistic(made);
    expect(model.weights[0]!).toBeGreaterThan(1);
    expect(Math.abs(model.weights[1]!)).toBeLessThan(model.weights[0]!);
    expect(Object.values(meanQuality(model, made)).every((q) => q > 0.95)).toBe(true);
    // The trees split on the feature that separates (the first tree's root), and rank as well.
    const trees = fitGbdt(made, ["signal", "noise"]);
    const root = (trees.model as { trees: { f: number }[] }).trees[0]!;
    expect(root.f).toBe(0);
    expect(Object.values(meanQuality(trees, made)).every((q) => q > 0.95)).toBe(true);
    // A scorer that gives every page the same score ranks by the blend's rank, then an irrelevant page first.
    const tied: Row[] = [
      { set: "s", group: "g", relevant: true, features: [0, 0.5] },
      { set: "s", group: "g", relevant: false, features: [0, 0.5] },
      { set: "s", group: "g", relevant: false, features: [0, 1] },
    ];
    expect(meanQuality({ score: () => 0.5 }, tied).s).toBeCloseTo(1 / Math.log2(4), 10);
  });
});
