// Issue 54: a crafted upload never takes the server down. Decompression bombs built by the tests (a DOCX whose
// document.xml inflates to 1 GiB, the same dressed as an XLSX, a PPTX and an EPUB (issue 60), a PDF with one
// FlateDecode stream of 500 MiB, a DOCX of 20,000 entries, refused at its upload) end `failed` with a plain reason, on the first
// attempt and for good; a long legitimate PDF is read; and /api/health answers within 1 s at every poll
// throughout (the server runs as a child process, killed if its memory passes 3 GB, so the old code fails
// these tests without eating the machine). A server killed while it reads a document twice fails that source
// instead of reading it again forever.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openDatabase } from "../../../src/db/client";
import { docxBomb, docxWithManyEntries, longPdf, pdfBomb } from "../../support/bombs";
import { MEDIA, epubBomb, pptxBomb, xlsxBomb } from "../../support/office-files";
import { cliKeyHeaders, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";
import { watchServer } from "../../support/watch-server";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
type Server = Awaited<ReturnType<typeof spawnServer>>;

/** A data dir with an owner key and a brain, and a server on it. */
async function startBrainbox(env: Record<string, string> = {}) {
  const dataDir = tempDir();
  const fullEnv = { BRAINBOX_DATA_DIR: dataDir, ...env };
  const headers = await cliKeyHeaders(fullEnv, "bombs");
  let server = await spawnServer(fullEnv);
  const brain = ((await (await fetch(`${server.url}/api/v1/brains`, { method: "POST", headers, body: JSON.stringify({ name: "Bombs" }) })).json()) as any).brain.id;
  const db = openDatabase({ dataDir });
  return {
    dataDir,
    db,
    get server() {
      return server;
    },
    async restart() {
      server = await spawnServer(fullEnv);
    },
    async upload(filename: string, contentType: string, bytes: Uint8Array, putStatus = 200): Promise<string> {
      const res = await fetch(`${server.url}/api/brains/${brain}/sources/upload-url`, { method: "POST", headers, body: JSON.stringify({ filename, contentType, size: bytes.byteLength }) });
      expect(res.status).toBe(201);
      const ticket = (await res.json()) as any;
      const put = await fetch(ticket.uploadUrl, { method: "PUT", body: new Blob([bytes as BlobPart]), headers: { "content-type": contentType } });
      expect(put.status).toBe(putStatus);
      return ticket.sourceId;
    },
    /** The source once it is ready or failed (null when the server died or the time ran out). */
    async settled(sourceId: string, timeoutMs = 90_000): Promise<any> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const res = await fetch(`${server.url}/api/v1/brains/${brain}/sources/${sourceId}`, { headers, signal: AbortSignal.timeout(5000) }).catch(() => null);
        if (!res && server.proc.exitCode !== null) return null;
        const source = res?.ok ? ((await res.json()) as any).source : null;
        if (source && ["ready", "failed"].includes(source.status)) return source;
        await Bun.sleep(200);
      }
      return null;
    },
    async job(sourceId: string) {
      const rows = (await db.client.execute({ sql: "SELECT status, attempts, payload FROM jobs WHERE subject_id = ? AND kind = 'ingest-source'", args: [sourceId] })).rows;
      return rows[0] as unknown as { status: string; attempts: number; payload: string } | undefined;
    },
    async close() {
      await server.stop("SIGKILL").catch(() => undefined);
      db.client.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe("decompression bombs and long documents", () => {
  let box: Awaited<ReturnType<typeof startBrainbox>>;
  beforeAll(async () => {
    box = await startBrainbox();
  }, 60_000);
  afterAll(() => box.close());

  /** Uploads a document while the server is watched; the settled source and what the watch saw. */
  async function feed(filename: string, contentType: string, bytes: Uint8Array) {
    const watch = watchServer(box.server.url, box.server.proc.pid);
    try {
      const sourceId = await box.upload(filename, contentType, bytes);
      const source = await box.settled(sourceId);
      await Bun.sleep(500); // a poll or two after the end: the server still answers
      return { sourceId, source, watch };
    } finally {
      await watch.stop();
    }
  }

  async function expectFailedForGood(sourceId: string, source: any, reason: RegExp) {
    expect(source).toMatchObject({ status: "failed" });
    expect(source.error).toMatch(reason);
    expect(source.error).not.toMatch(/retrying/);
    expect(await box.job(sourceId)).toMatchObject({ status: "failed", attempts: 1 });
  }

  test("a 4 MB DOCX whose document.xml inflates to 1 GiB (and says less) fails with its reason; health answers throughout", async () => {
    const { sourceId, source, watch } = await feed("bomb.docx", DOCX, docxBomb(1024, "understated"));
    expect({ killed: watch.killed, slowPolls: watch.slowPolls }).toEqual({ killed: false, slowPolls: 0 });
    await expectFailedForGood(sourceId, source, /document\.xml\) expands to more than 100 MB/);
  }, 120_000);

  // Issue 60: the same bomb dressed as the zip-based formats read since.
  for (const [name, type, bomb, part] of [
    ["bomb.xlsx", MEDIA.xlsx, xlsxBomb, /sheet1\.xml\) expands to more than 100 MB/],
    ["bomb.pptx", MEDIA.pptx, pptxBomb, /slide1\.xml\) expands to more than 100 MB/],
    ["bomb.epub", MEDIA.epub, epubBomb, /part1\.xhtml\) expands to more than 100 MB/],
  ] as const) {
    test(`${name}, one entry inflating to 1 GiB (and saying less), fails with its reason; health answers throughout`, async () => {
      const { sourceId, source, watch } = await feed(name, type, bomb(1024, "understated"));
      expect({ killed: watch.killed, slowPolls: watch.slowPolls }).toEqual({ killed: false, slowPolls: 0 });
      await expectFailedForGood(sourceId, source, part);
    }, 120_000);
  }

  test("a PDF with one FlateDecode stream of 500 MiB fails with its reason; health answers throughout", async () => {
    const { sourceId, source, watch } = await feed("bomb.pdf", "application/pdf", pdfBomb(500));
    expect({ killed: watch.killed, slowPolls: watch.slowPolls }).toEqual({ killed: false, slowPolls: 0 });
    await expectFailedForGood(sourceId, source, /stream of the document .* expands to more than 100 MB/);
  }, 120_000);

  test("a DOCX of 20,000 entries is refused at upload (its own directory says so) and fails with its reason", async () => {
    const sourceId = await box.upload("entries.docx", DOCX, docxWithManyEntries(20_000), 422);
    const source = await box.settled(sourceId);
    expect(source).toMatchObject({ status: "failed" });
    expect(source.error).toMatch(/more than 10,000 parts/);
    expect(await box.job(sourceId)).toBeUndefined();
  }, 120_000);

  test("a long legitimate PDF is read off the server's thread: ready, health answers throughout", async () => {
    const { source, watch } = await feed("manual.pdf", "application/pdf", longPdf(1200));
    expect({ killed: watch.killed, slowPolls: watch.slowPolls }).toEqual({ killed: false, slowPolls: 0 });
    expect(source).toMatchObject({ status: "ready" });
    expect(watch.polls).toBeGreaterThan(10);
  }, 150_000);
});

test("a document the server died reading twice fails for good instead of being read at every restart", async () => {
  const box = await startBrainbox({ BRAINBOX_JOB_LEASE_MS: "1000" });
  try {
    const sourceId = await box.upload("slow.pdf", "application/pdf", longPdf(400));
    for (let crash = 1; crash <= 2; crash++) {
      // Killed while its read is under way: the job's mark counts this read (after a restart the previous
      // read's mark stays until the job is claimed again, so wait for this one's).
      const deadline = Date.now() + 60_000;
      const marks = async () => JSON.parse((await box.job(sourceId))?.payload ?? "{}").extracting;
      while ((await marks()) !== crash && Date.now() < deadline) await Bun.sleep(20);
      expect(JSON.parse((await box.job(sourceId))!.payload).extracting).toBe(crash);
      await box.server.stop("SIGKILL");
      await box.restart();
    }
    const source = await box.settled(sourceId, 30_000);
    expect(source).toMatchObject({ status: "failed", error: "reading the document stopped the server 2 times; it is not tried again" });
    expect((await box.job(sourceId))!.status).toBe("failed");
  } finally {
    await box.close();
  }
}, 120_000);
