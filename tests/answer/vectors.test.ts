// The hybrid path: the tiny random model embeds pages during ingestion and queries at retrieval (its
// similarities mean nothing; this checks the code path), the vector snapshot follows writes, and the
// in-memory search agrees with an exact scan.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answerService } from "../../src/modules/answer";
import { buildSnapshot, searchSnapshot, topK } from "../../src/retrieval/vector-index";
import { blend } from "../../src/retrieval/retriever";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";
import { buildTinyModel } from "../support/tiny-model";
import { mulberry32 } from "../support/random";

let modelsDir: string;
let s: TestServer;
let brainId: string;
beforeAll(async () => {
  modelsDir = await mkdtemp(join(tmpdir(), "brainbox-models-"));
  const model = await buildTinyModel(modelsDir);
  s = await startTestServer({ BRAINBOX_MODELS_DIR: modelsDir, BRAINBOX_EMBED_MODEL: model });
  brainId = await newBrain(s, "Hybrid");
  for (const [title, content] of [
    ["Glaciers", "A glacier is a persistent body of dense ice that moves under its own weight."],
    ["Deserts", "A desert is a landscape where little precipitation occurs."],
  ]) {
    const { source } = await addText(s, brainId, title!, content!);
    await waitForSource(s, brainId, source.id);
  }
});
afterAll(async () => {
  await s.close();
  await rm(modelsDir, { recursive: true, force: true });
});

const brains = () => [{ id: brainId, name: "Hybrid", kind: "primary" as const }];

describe("hybrid retrieval", () => {
  test("pages carry vectors; context and ask work in hybrid mode", async () => {
    const context = await answerService(s.ctx).context({ brains: brains(), query: "How does a glacier move?" });
    expect(context.retrieval).toBe("hybrid");
    expect(context.pages[0]!.slug).toBe("glaciers"); // BM25 still leads: the tiny model's vectors are noise
    expect(context.pages.every((p) => typeof p.cosine === "number")).toBe(true);
    const body = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "How does a glacier move?" } }), 200);
    expect(body.thin).toBe(false);
    expect(body.citations[0].slug).toBe("glaciers");
  });

  test("the vector snapshot follows writes: a new page is searchable, a deleted one gone", async () => {
    const service = answerService(s.ctx);
    const before = await service.context({ brains: brains(), query: "volcano lava eruption" });
    expect(before.pages.map((p) => p.slug)).not.toContain("volcanoes");
    const { source } = await addText(s, brainId, "Volcanoes", "A volcano erupts lava, ash and gases from a magma chamber.");
    await waitForSource(s, brainId, source.id);
    const after = await service.context({ brains: brains(), query: "volcano lava eruption" });
    expect(after.pages[0]!.slug).toBe("volcanoes");
    expect(after.pages[0]!.cosine).toBeNumber();
    const [query] = await s.ctx.ai.embedder!.embed(["anything"]);
    const { snapshot } = await service.retriever.vectors.search(brainId, s.ctx.ai.embedder!.model, query!, 10);
    expect(snapshot!.count).toBe(3);
    expect((await s.api(`/api/v1/brains/${brainId}/sources/${source.id}`, { method: "DELETE" })).status).toBe(204);
    const { snapshot: shrunk } = await service.retriever.vectors.search(brainId, s.ctx.ai.embedder!.model, query!, 10);
    expect(shrunk!.count).toBe(2);
  });
});

describe("in-memory vector search", () => {
  const random = mulberry32(7);
  const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
  const unit = (v: Float32Array) => {
    const norm = Math.hypot(...v); // once per vector, not per element
    return v.map((x) => x / norm);
  };
  const dim = 384;
  const centres = Array.from({ length: 200 }, () => unit(Float32Array.from({ length: dim }, gauss)));
  const vectors = Array.from({ length: 20_000 }, (_, i) => unit(centres[i % 200]!.map((c) => c + 0.08 * gauss())));
  const ids = vectors.map((_, i) => 1000 + i);
  const snapshot = buildSnapshot("b", "m", 1, ids, vectors);
  /** The cosine, summed in order as a reduce would (a plain loop: the oracle runs 20 times over 20k rows). */
  const dot = (v: Float32Array, q: Float32Array) => {
    let sum = 0;
    for (let j = 0; j < v.length; j++) sum += v[j]! * q[j]!;
    return sum;
  };
  const exact = (q: Float32Array, k: number) =>
    vectors
      .map((v, i) => ({ id: ids[i]!, d: dot(v, q) }))
      .sort((a, b) => b.d - a.d)
      .slice(0, k);

  test("prefiltered search (20k × 384) finds the exact top 10 and close cosines", () => {
    let found = 0;
    for (let t = 0; t < 20; t++) {
      const q = unit(centres[t * 7]!.map((c) => c + 0.1 * gauss()));
      const truth = exact(q, 10);
      const hits = searchSnapshot(snapshot, q, 10);
      found += hits.filter((h) => truth.some((x) => x.id === h.pageId)).length;
      expect(Math.abs(hits[0]!.cosine - truth[0]!.d)).toBeLessThan(0.02);
    }
    expect(found / 200).toBeGreaterThan(0.9);
  });

  test("a small snapshot is scanned exactly", () => {
    const small = buildSnapshot("b", "m", 1, ids.slice(0, 500), vectors.slice(0, 500));
    const q = vectors[42]!;
    expect(searchSnapshot(small, q, 1)[0]!.pageId).toBe(1042);
  });

  test("top-k selection equals a full sort (ties by position), for k below, at and above the row count", () => {
    const scores = Float64Array.from({ length: 1000 }, (_, i) => ((i * 7919) % 101) / 100);
    const sorted = Array.from(scores.keys()).sort((a, b) => scores[b]! - scores[a]! || a - b);
    for (const k of [0, 1, 10, 50, 1000, 2000]) expect(topK(scores, k)).toEqual(sorted.slice(0, k));
    expect(topK(new Float64Array(0), 5)).toEqual([]);
  });
});

test("blend: lexical normalized by its best, cosine min-max, brain preference multiplies", () => {
  const candidates = new Map([
    [1, { brainId: "a", lexical: 10, cosine: 0.2 }],
    [2, { brainId: "a", lexical: 5, cosine: 0.6 }],
    [3, { brainId: "b", lexical: 10, cosine: 0.2 }],
  ]);
  const lexicalOnly = blend(candidates, 0, new Map([["b", 0.8]]));
  expect(lexicalOnly.map((s) => [s.pageId, s.score])).toEqual([
    [1, 1],
    [3, 0.8],
    [2, 0.5],
  ]);
  const vectorHeavy = blend(candidates, 0.8, new Map());
  expect(vectorHeavy[0]!.pageId).toBe(2);
});

