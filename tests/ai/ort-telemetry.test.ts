// onnxruntime must not leave telemetry files (device id, debug log) in TMPDIR: the embedder turns it off.
import { expect, test } from "bun:test";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

test("loading and running the embedder leaves TMPDIR empty", async () => {
  const work = await mkdtemp(join(tmpdir(), "brainbox-ort-"));
  const processTmp = join(work, "tmp");
  try {
    // A fresh process: the switch must be set before onnxruntime loads, which the test runner may have done.
    const script = `
      const { buildTinyModel } = await import(${JSON.stringify(join(import.meta.dir, "../support/tiny-model.ts"))});
      const { loadEmbedder } = await import(${JSON.stringify(join(import.meta.dir, "../../src/ai/embedder.ts"))});
      const model = await buildTinyModel(${JSON.stringify(join(work, "models"))});
      const embedder = await loadEmbedder({ modelsDir: ${JSON.stringify(join(work, "models"))}, model });
      console.log((await embedder.embed(["telemetry off"]))[0].length);`;
    await mkdir(processTmp);
    const env: Record<string, string | undefined> = { ...process.env, TMPDIR: processTmp };
    delete env.ORT_DISABLE_TELEMETRY;
    const child = Bun.spawn([process.execPath, "-e", script], { env, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect({ code, out: out.trim(), err }).toEqual({ code: 0, out: "32", err: "" });
    expect(await readdir(processTmp)).toEqual([]);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
