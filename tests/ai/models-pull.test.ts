// `models pull` against a loopback stand-in hub serving the tiny model, then loaded by the real embedder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEmbedder } from "../../src/ai/embedder.ts";
import { ModelPullError, pullModel } from "../../src/ai/models-pull.ts";
import { startHubStandin, type HubStandin } from "../support/hub-standin.ts";
import { buildTinyModel } from "../support/tiny-model.ts";

let hubDir: string;
let hub: HubStandin;
let work: string;

beforeAll(async () => {
  hubDir = await mkdtemp(join(tmpdir(), "brainbox-hub-"));
  await buildTinyModel(hubDir, "acme/tiny-bert");
  await buildTinyModel(hubDir, "acme/no-vocab");
  await rm(join(hubDir, "acme/no-vocab/vocab.txt"));
  await buildTinyModel(hubDir, "acme/no-onnx");
  await rm(join(hubDir, "acme/no-onnx/onnx"), { recursive: true });
  hub = startHubStandin({ modelsDir: hubDir });
  work = await mkdtemp(join(tmpdir(), "brainbox-pull-"));
});

afterAll(async () => {
  await hub.stop();
  await rm(hubDir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

/** Every file under dir, relative, sorted; [] when dir does not exist. */
async function listTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe("pullModel", () => {
  test("fetches the model into {modelsDir}/{modelId} and the embedder loads it", async () => {
    const modelsDir = join(work, "models");
    const result = await pullModel({ modelId: "acme/tiny-bert", modelsDir, hubUrl: hub.url });
    expect(result.dir).toBe(join(modelsDir, "acme/tiny-bert"));
    expect(result.files.sort()).toEqual(
      ["config.json", "onnx/model.onnx", "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt"],
    );
    expect(await listTree(modelsDir)).toEqual(result.files.map((f) => `acme/tiny-bert/${f}`).sort());
    expect(await Bun.file(join(result.dir, "onnx/model.onnx")).bytes()).toEqual(
      await Bun.file(join(hubDir, "acme/tiny-bert/onnx/model.onnx")).bytes(),
    );

    const embedder = await loadEmbedder({ modelsDir, model: "acme/tiny-bert" });
    const [v] = await embedder.embed(["pulled from the stand-in hub"]);
    expect(v!.length).toBe(embedder.dim);
  });

  test("pulling again replaces the files in place", async () => {
    const modelsDir = join(work, "models");
    const again = await pullModel({ modelId: "acme/tiny-bert", modelsDir, hubUrl: `${hub.url}/` });
    expect(again.files).toContain("onnx/model.onnx");
    expect((await listTree(modelsDir)).filter((f) => f.includes(".pull-"))).toEqual([]);
  });

  test("optional files may be absent on the hub", async () => {
    const modelsDir = join(work, "optional");
    const result = await pullModel({ modelId: "acme/no-vocab", modelsDir, hubUrl: hub.url });
    expect(result.files).not.toContain("vocab.txt");
    expect(result.files).toContain("tokenizer.json");
  });

  test("an unknown model is a clear error and leaves nothing behind", async () => {
    const modelsDir = join(work, "unknown");
    const error = await pullModel({ modelId: "acme/nope", modelsDir, hubUrl: hub.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelPullError);
    expect((error as Error).message).toContain(`${hub.url}/acme/nope/resolve/main/config.json`);
    expect((error as Error).message).toContain("HTTP 404");
    expect(await readdir(modelsDir)).toEqual([]);
  });

  test("a missing required file fails the pull without a half-written model", async () => {
    const modelsDir = join(work, "no-onnx");
    const error = await pullModel({ modelId: "acme/no-onnx", modelsDir, hubUrl: hub.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelPullError);
    expect((error as Error).message).toContain("onnx/model.onnx");
    expect(await readdir(modelsDir)).toEqual([]);
  });

  test("an unreachable hub is a clear error", async () => {
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const url = `http://127.0.0.1:${closed.port}`;
    await closed.stop(true);
    const modelsDir = join(work, "down");
    const error = await pullModel({ modelId: "acme/tiny-bert", modelsDir, hubUrl: url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelPullError);
    expect((error as Error).message).toContain("Could not reach");
    expect(await readdir(modelsDir)).toEqual([]);
  });

  test("rejects model ids that are not hub ids (or would escape modelsDir) before any request", async () => {
    const before = hub.requests.length;
    const modelsDir = join(work, "bad-ids");
    for (const modelId of ["", "../etc", "acme/../../x", "a/b/c", "/abs", "acme/", ".hidden", "a b"]) {
      const error = await pullModel({ modelId, modelsDir, hubUrl: hub.url }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelPullError);
    }
    expect(hub.requests.length).toBe(before);
    expect(await listTree(modelsDir)).toEqual([]);
  });

  test("rejects a hub URL that is not http(s)", async () => {
    for (const hubUrl of ["not a url", "file:///etc", "ftp://example.com"]) {
      await expect(pullModel({ modelId: "acme/tiny-bert", modelsDir: join(work, "bad-hub"), hubUrl })).rejects.toThrow(
        ModelPullError,
      );
    }
  });
});
