// The compiled executable, copied alone into an empty folder (no node_modules anywhere above it).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { BUN, lastLine, ROOT, runCli, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";
import { buildPdf } from "../../support/documents";
import { grayToPng, renderScan } from "../../support/scans";
import { waitForSource } from "../../support/sources";
import { buildTinyModel } from "../../support/tiny-model";
import { openDatabase } from "../../../src/db/client";

const dir = tempDir("brainbox-lone-");
const binary = join(dir, "brainbox");

beforeAll(async () => {
  const build = await runCli([join(ROOT, "scripts/build-binary.ts"), join(dir, "build/brainbox")], {}, [BUN]);
  if (build.code !== 0) throw new Error(build.stderr + build.stdout);
  copyFileSync(join(dir, "build/brainbox"), binary);
  rmSync(join(dir, "build"), { recursive: true, force: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the lone binary serves, creates a key and lists brains, embeds and reads a PDF", async () => {
  expect(existsSync(join(dir, "..", "node_modules"))).toBe(false);
  // Issue 15's footprint ceiling (scripts/bench-footprint.ts also prints cold start and idle RSS), raised by
  // the 15.6 MB of OCR models issue 60 puts inside (they are float weights: zstd saves 8% of them) and its
  // spreadsheet reader (exceljs and what it bundles).
  expect(statSync(binary).size / 2 ** 20).toBeLessThanOrEqual(182);
  await buildTinyModel(join(dir, "models"), "tiny");
  const env = { BRAINBOX_DATA_DIR: join(dir, "data"), BRAINBOX_MODELS_DIR: join(dir, "models"), BRAINBOX_EMBED_MODEL: "tiny" };
  const created = await runCli(["keys", "create", "--name", "lone"], env, [binary]);
  expect(created.code).toBe(0);
  const key = lastLine(created.stdout);
  const server = await spawnServer(env, [binary]);
  try {
    // It runs on the runtime's defaults: no engine setting of its own in its environment, its command line as given.
    const environ = (await Bun.file(`/proc/${server.proc.pid}/environ`).text()).split("\0");
    expect(environ.filter((e) => e.startsWith("BUN_JSC_") || e.startsWith("MIMALLOC_"))).toEqual([]);
    expect((await Bun.file(`/proc/${server.proc.pid}/cmdline`).text()).split("\0").filter(Boolean)).toEqual([binary, "serve"]);
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const made = await fetch(`${server.url}/api/v1/brains`, { method: "POST", headers, body: JSON.stringify({ name: "Lone" }) });
    expect(made.status).toBe(201);
    const list = (await (await fetch(`${server.url}/api/v1/brains`, { headers })).json()) as any;
    expect(list.brains.map((b: any) => b.name)).toEqual(["Lone"]);
    const docs = await fetch(`${server.url}/swagger/assets/swagger-ui-bundle.js`);
    expect(docs.status).toBe(200);
    const page = await fetch(`${server.url}/`);
    expect(await page.text()).toContain("Brainbox");
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as any;
    expect(health.embedder).toMatchObject({ active: "tiny", retrieval: "hybrid" });

    // A PDF through the upload flow: unpdf, Transformers.js and onnxruntime all run from inside the binary.
    const brainId = ((await made.json()) as any).brain.id;
    const pdf = buildPdf(["Basalt columns form when lava cools slowly."]);
    const ticket = (await (
      await fetch(`${server.url}/api/brains/${brainId}/sources/upload-url`, {
        method: "POST",
        headers,
        body: JSON.stringify({ filename: "basalt.pdf", contentType: "application/pdf", size: pdf.byteLength }),
      })
    ).json()) as any;
    expect((await fetch(ticket.uploadUrl, { method: "PUT", body: new Blob([pdf as BlobPart]), headers: { "content-type": "application/pdf" } })).status).toBe(200);
    const source = await waitForSource({ api: (path, init = {}) => fetch(server.url + path, { ...init, headers }) }, brainId, ticket.sourceId);
    expect(source.status).toBe("ready");
    const db = openDatabase({ dataDir: env.BRAINBOX_DATA_DIR });
    const vectors = await db.client.execute("SELECT count(*) AS n FROM page_vectors WHERE model = 'tiny'");
    db.close();
    expect(Number(vectors.rows[0]!.n)).toBe(1);

    // Concept extraction and checkpoints run on worker threads bundled into the binary as entrypoints of
    // their own: a concept named by two sources earns its page, and no thread fell back or failed.
    const api = (path: string, init: RequestInit = {}) => fetch(server.url + path, { ...init, headers });
    for (const [title, content] of [
      ["Harbour works", "Engineer Ada Quill rebuilt the harbour wall of Velsmouth."],
      ["Lighthouses", "The lighthouse at Velsmouth was designed by Ada Quill in 1902."],
    ]) {
      const added = (await (await api(`/api/v1/brains/${brainId}/sources`, { method: "POST", body: JSON.stringify({ title, content }) })).json()) as any;
      expect((await waitForSource({ api }, brainId, added.source.id)).status).toBe("ready");
    }
    // The concept pages follow the source's ready state (its job refreshes them after the write): wait for it.
    let concept: any = null;
    for (const until = Date.now() + 20_000; Date.now() < until && concept?.page?.kind !== "concept"; await Bun.sleep(50))
      concept = await (await api(`/api/v1/brains/${brainId}/pages/ada-quill`)).json();
    expect(concept.page?.kind).toBe("concept");
    expect(server.stderr()).not.toMatch(/thread/);

    // A scan read with OCR on the document thread: the models and onnxruntime come out of the binary. WebP
    // needs sharp, which the binary leaves out: it fails with that reason.
    const upload = async (filename: string, contentType: string, bytes: Uint8Array) => {
      const ticket = (await (await api(`/api/v1/brains/${brainId}/sources/upload-url`, { method: "POST", body: JSON.stringify({ filename, contentType, size: bytes.byteLength }) })).json()) as any;
      expect((await fetch(ticket.uploadUrl, { method: "PUT", body: new Blob([bytes as BlobPart]), headers: { "content-type": contentType } })).status).toBe(200);
      return waitForSource({ api }, brainId, ticket.sourceId);
    };
    const scan = await renderScan(["The archive room key hangs behind the blue door."], { dpi: 200, widthInches: 6, heightInches: 1.5 });
    expect((await upload("key.png", "image/png", grayToPng(scan))).status).toBe("ready");
    const read = openDatabase({ dataDir: env.BRAINBOX_DATA_DIR });
    const pages = await read.client.execute("SELECT markdown FROM pages WHERE markdown LIKE '%Text read by OCR%'");
    read.close();
    expect(String(pages.rows[0]?.markdown)).toContain("The archive room key hangs behind the blue door.");
    const sharp = (await import("sharp")).default;
    const webp = new Uint8Array(await sharp(Buffer.from(scan.data), { raw: { width: scan.width, height: scan.height, channels: 1 } }).webp().toBuffer());
    const refused = await upload("key.webp", "image/webp", webp);
    expect(refused).toMatchObject({ status: "failed" });
    expect(refused.error).toContain("WebP images cannot be read by this build");
  } finally {
    await server.stop();
  }
});
