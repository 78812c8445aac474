// `brainbox models pull` as a real child process against a loopback hub stand-in; the in-process server then
// loads the model it wrote.
import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { lastLine, runCli } from "../../support/cli";
import { startHubStandin } from "../../support/hub-standin";
import { expectJson, startTestServer, tempDir } from "../../support/server";
import { buildTinyModel } from "../../support/tiny-model";

describe("embeddings", () => {
  test("`models pull` downloads a model from a hub (a loopback stand-in) that the server then loads", async () => {
    const hubDir = tempDir("brainbox-hub-");
    await buildTinyModel(join(hubDir, "acme"), "mini");
    const hub = startHubStandin({ modelsDir: hubDir });
    const target = tempDir("brainbox-pulled-");
    const result = await runCli(["models", "pull", "acme/mini"], { BRAINBOX_DATA_DIR: target, BRAINBOX_MODEL_HUB_URL: hub.url });
    expect(result.code).toBe(0);
    expect(lastLine(result.stdout)).toContain("acme/mini");
    const s = await startTestServer({ BRAINBOX_MODELS_DIR: join(target, "models"), BRAINBOX_EMBED_MODEL: "acme/mini" });
    expect((await expectJson(await s.api("/api/health", { key: null }), 200)).embedder.active).toBe("acme/mini");
    await s.close();
    const missing = await runCli(["models", "pull", "acme/nothing"], { BRAINBOX_DATA_DIR: target, BRAINBOX_MODEL_HUB_URL: hub.url });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("acme/nothing");
    await hub.stop();
    rmSync(hubDir, { recursive: true, force: true });
    rmSync(target, { recursive: true, force: true });
  });
});
