// The real Transformers.js + onnxruntime-node path on the tiny random model built for tests.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbedderError, loadEmbedder, type Embedder } from "../../src/ai/embedder.ts";
import { buildTinyModel } from "../support/tiny-model.ts";

let modelsDir: string;
let embedder: Embedder;

beforeAll(async () => {
  modelsDir = await mkdtemp(join(tmpdir(), "brainbox-embedder-"));
  const model = await buildTinyModel(modelsDir);
  embedder = await loadEmbedder({ modelsDir, model });
});

afterAll(async () => {
  await rm(modelsDir, { recursive: true, force: true });
});

const norm = (v: Float32Array) => Math.hypot(...v);
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe("loadEmbedder on the tiny model", () => {
  test("discovers the dimension and names the model", () => {
    expect(embedder.model).toBe("tiny-bert");
    expect(embedder.dim).toBe(32);
  });

  test("gives one normalized vector of the model's dimension per text", async () => {
    const vectors = await embedder.embed(["The brain keeps pages.", "", "Ünïcödé and 42 numbers!"]);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(embedder.dim);
      expect(norm(v)).toBeCloseTo(1, 5);
      expect(v.every(Number.isFinite)).toBe(true);
    }
  });

  test("different texts differ, word order included; the same text gives the same vector", async () => {
    const [a, b, c, a2] = await embedder.embed(["hello world", "goodbye moon", "world hello", "hello world"]);
    expect(cosine(a!, b!)).toBeLessThan(0.999);
    expect(cosine(a!, c!)).toBeLessThan(0.9999);
    expect([...a2!]).toEqual([...a!]);
  });

  test("a text's vector does not depend on its batch (padding, batch boundaries)", async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `sentence ${i} ${"with more words ".repeat(i % 7)}`);
    const batched = await embedder.embed(texts); // 3 internal batches of at most 32
    for (const i of [0, 31, 32, 69]) {
      const [alone] = await embedder.embed([texts[i]!]);
      expect(cosine(batched[i]!, alone!)).toBeCloseTo(1, 5);
    }
  });

  test("an empty list embeds to an empty list", async () => {
    expect(await embedder.embed([])).toEqual([]);
  });

  test("long texts are truncated to the model's window instead of failing", async () => {
    const [v] = await embedder.embed(["word ".repeat(5000)]);
    expect(v!.length).toBe(embedder.dim);
  });

  test("rejects inputs that are not an array of strings", async () => {
    await expect(embedder.embed([42 as unknown as string])).rejects.toThrow(TypeError);
    await expect(embedder.embed("text" as unknown as string[])).rejects.toThrow(TypeError);
    await expect(embedder.embed([null as unknown as string])).rejects.toThrow(TypeError);
  });

  test("100 sentences embed in one call on a freshly loaded model, a vector each", async () => {
    const sentences = Array.from({ length: 100 }, (_, i) => `Sentence ${i} says something about brain ${i % 9}.`);
    const fresh = await loadEmbedder({ modelsDir, model: "tiny-bert" });
    const vectors = await fresh.embed(sentences);
    expect(vectors).toHaveLength(100);
    for (const v of vectors) expect(v.length).toBe(fresh.dim);
  });
});

describe("loadEmbedder errors", () => {
  test("a missing folder names the folder and the missing files", async () => {
    const error = await loadEmbedder({ modelsDir, model: "no-such-model" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbedderError);
    const message = (error as Error).message;
    expect(message).toContain(join(modelsDir, "no-such-model"));
    expect(message).toContain("onnx/model.onnx");
    expect(message).toContain("config.json");
    expect(message).toContain("models pull");
  });

  test("an incomplete folder lists only what is missing", async () => {
    const dir = join(modelsDir, "incomplete");
    await cp(join(modelsDir, "tiny-bert"), dir, { recursive: true });
    await rm(join(dir, "onnx", "model.onnx"));
    const error = await loadEmbedder({ modelsDir, model: "incomplete" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbedderError);
    expect((error as Error).message).toMatch(/incomplete \(missing: onnx\/model\.onnx\)/);
  });

  test("a corrupt ONNX file is an EmbedderError naming the folder", async () => {
    const dir = join(modelsDir, "corrupt");
    await cp(join(modelsDir, "tiny-bert"), dir, { recursive: true });
    await writeFile(join(dir, "onnx", "model.onnx"), "not a protobuf");
    const error = await loadEmbedder({ modelsDir, model: "corrupt" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbedderError);
    expect((error as Error).message).toContain(dir);
  });

  test("two models from two folders load side by side", async () => {
    const otherDir = await mkdtemp(join(tmpdir(), "brainbox-embedder-other-"));
    try {
      await buildTinyModel(otherDir, "other/tiny");
      const [one, two] = await Promise.all([
        loadEmbedder({ modelsDir, model: "tiny-bert" }),
        loadEmbedder({ modelsDir: otherDir, model: "other/tiny" }),
      ]);
      const [a] = await one.embed(["same weights, same vector"]);
      const [b] = await two.embed(["same weights, same vector"]);
      expect(two.model).toBe("other/tiny");
      expect(cosine(a!, b!)).toBeCloseTo(1, 5); // the tiny model is deterministic
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });
});
