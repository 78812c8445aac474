// The uploaded files' disk full while the database still has space: the upload answers 507 storage_full and
// health says degraded; a later successful DATABASE write must not clear a problem that came from the files'
// disk (the two are tracked apart); a file saved again does.
//
// Real disks: a small tmpfs mounted at the data dir's uploads/ (root only; skipped elsewhere), its last byte
// taken by a filler file; the database stays on the data dir's own disk.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { newBrain, waitForSource } from "../support/sources";
import { fillDiskWith } from "../support/fill-disk";

let s: TestServer;
let dataDir: string;
let uploads: string;
let mounted = false;
let brainId: string;

function mountTmpfs(at: string): boolean {
  if (process.getuid?.() !== 0) return false;
  mkdirSync(at, { recursive: true });
  return Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", at]).exitCode === 0;
}

function fillUploadsDisk() {
  fillDiskWith(join(uploads, "filler"));
}

const health = async () => expectJson(await fetch(`${s.url}/api/health`), 200);
const text = "The lock keeper opens the gates at high water. ".repeat(4000);
const put = (url: string) => fetch(url, { method: "PUT", headers: { "content-type": "text/plain" }, body: text });

beforeAll(async () => {
  dataDir = tempDir();
  uploads = join(dataDir, "uploads");
  mounted = mountTmpfs(uploads);
  s = await startTestServer({}, dataDir);
  brainId = await newBrain(s, "Locks");
});
afterAll(async () => {
  rmSync(join(uploads, "filler"), { force: true });
  if (mounted) Bun.spawnSync(["umount", "-l", uploads]);
  await s?.close();
});

describe.if(process.getuid?.() === 0)("the files' disk full, the database's not (tmpfs at uploads/)", () => {
  test("an upload answers 507; a database write keeps health degraded; a saved file clears it", async () => {
    expect(mounted).toBe(true);
    const ticket = await expectJson(
      await s.api(`/api/v1/brains/${brainId}/sources/upload-url`, { method: "POST", json: { filename: "locks.txt", contentType: "text/plain", size: text.length } }),
      201,
    );
    fillUploadsDisk();
    const refused = await expectJson(await put(ticket.uploadUrl), 507);
    expect(refused.error.code).toBe("storage_full");
    const degraded = await health();
    expect(degraded.status).toBe("degraded");
    expect(degraded.storage).toMatchObject({ ok: false, reason: "storage_full", full: ["files"] });
    expect(degraded.storage.message).toContain("upload");

    // The database has room: its writes succeed, and say nothing about the files' disk.
    await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name: "Weirs" } }), 201);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "Gates", content: "The gates open at high water." } }), 201);
    const still = await health();
    expect(still.status).toBe("degraded");
    expect(still.storage.full).toEqual(["files"]);

    rmSync(join(uploads, "filler"), { force: true });
    expect((await put(ticket.uploadUrl)).status).toBe(200);
    const body = await health();
    expect(body.status).toBe("ok");
    expect(body.storage).toEqual({ ok: true });
    expect((await waitForSource(s, brainId, ticket.sourceId)).status).toBe("ready");
  });
});
