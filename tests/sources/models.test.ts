// The embedding and generation paths of ingestion: a real Transformers.js model (tiny, built by the
// project) and the official ollama client against a loopback stand-in. `models pull` (the CLI, a child process):
// tests/e2e/sources/models-pull-cli.test.ts.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { startOllamaStandin } from "../support/ollama-standin";
import { expectJson, startTestServer, tempDir } from "../support/server";
import { buildTinyModel } from "../support/tiny-model";
import { addText, newBrain, pagesOf, waitForSource } from "../support/sources";

const modelsDir = tempDir("brainbox-models-");
afterAll(() => rmSync(modelsDir, { recursive: true, force: true }));

const vectorCounts = async (client: any) =>
  Object.fromEntries(
    (await client.execute("SELECT model, count(*) AS n FROM page_vectors GROUP BY model")).rows.map((r: any) => [r.model, Number(r.n)]),
  );

describe("embeddings", () => {
  test("pages get vectors; health names the model; a model change re-embeds in the background", async () => {
    await buildTinyModel(modelsDir, "tiny-a");
    await buildTinyModel(modelsDir, "tiny-b");
    const dataDir = tempDir();
    const env = { BRAINBOX_MODELS_DIR: modelsDir, BRAINBOX_EMBED_MODEL: "tiny-a" };
    const s = await startTestServer(env, dataDir);
    const brainId = await newBrain(s);
    for (const [title, text] of [["Owls", "Owls hunt at night with silent feathers."], ["Bats", "Bats navigate by echolocation."]]) {
      const { source } = await addText(s, brainId, title!, text!);
      await waitForSource(s, brainId, source.id);
    }
    expect(await vectorCounts(s.ctx.database.client)).toEqual({ "tiny-a": 2 });
    const health = await expectJson(await s.api("/api/health", { key: null }), 200);
    expect(health.embedder).toMatchObject({ active: "tiny-a", retrieval: "hybrid" });
    expect(health.embedder.dim).toBeGreaterThan(0);
    await s.stop();

    // Same data, another model: the existing pages are embedded again without any new source.
    const { loadConfig } = await import("../../src/config");
    const { startServer } = await import("../../src/runtime");
    const { createLogger } = await import("../../src/lib/log");
    const again = await startServer(loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dataDir, ...env, BRAINBOX_EMBED_MODEL: "tiny-b" }), createLogger("error"));
    const deadline = Date.now() + 10_000;
    while ((await vectorCounts(again.ctx.database.client))["tiny-b"] !== 2 && Date.now() < deadline) await Bun.sleep(25);
    expect(await vectorCounts(again.ctx.database.client)).toEqual({ "tiny-a": 2, "tiny-b": 2 });
    await again.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("a missing model folder leaves the brain lexical and says why, without failing", async () => {
    const s = await startTestServer({ BRAINBOX_MODELS_DIR: modelsDir, BRAINBOX_EMBED_MODEL: "no-such-model" });
    const health = await expectJson(await s.api("/api/health", { key: null }), 200);
    expect(health.embedder.retrieval).toBe("lexical");
    expect(health.embedder.error).toContain("no-such-model");
    const brainId = await newBrain(s);
    const { source } = await addText(s, brainId, "Still works", "Lexical brains still ingest.");
    expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
    await s.close();
  });
});

describe("synthesis with Ollama", () => {
  test("the model writes the pages; when it fails, the deterministic pages are kept", async () => {
    const ollama = startOllamaStandin({
      reply: (body) => `Wiki page written by the model from: ${body.messages.at(-1).content.split("\n")[0]}`,
    });
    const s = await startTestServer({ BRAINBOX_OLLAMA_URL: ollama.url, BRAINBOX_OLLAMA_MODEL: "llama3.2" });
    const brainId = await newBrain(s);
    const { source } = await addText(s, brainId, "Comets", "Comets are icy bodies that grow tails near the sun.");
    await waitForSource(s, brainId, source.id);
    const page = (await pagesOf(s, brainId))[0]!;
    expect(page.markdown).toContain("Wiki page written by the model from: Page title: Comets");
    const chat = ollama.requests.find((r) => r.path === "/api/chat")!;
    expect(chat.body.model).toBe("llama3.2");
    expect(chat.body.messages[0].content).toContain("add nothing the source does not say");

    ollama.setFail(500);
    const second = await addText(s, brainId, "Meteors", "Meteors are streaks of light from burning dust.");
    expect((await waitForSource(s, brainId, second.source.id)).status).toBe("ready");
    expect((await pagesOf(s, brainId)).find((p) => p.source_id === second.source.id)!.markdown).toContain("burning dust");

    const notes = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "N", content: "verbatim", mode: "note" } }), 201);
    await waitForSource(s, brainId, notes.source.id);
    expect((await pagesOf(s, brainId)).find((p) => p.source_id === notes.source.id)!.markdown).toBe("verbatim");
    await s.close();
    await ollama.stop();
  });
});
