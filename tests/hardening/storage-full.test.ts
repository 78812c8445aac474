// A full disk (issue 54 item 5): writes answer 507 storage_full with a plain message, reads keep working
// (a key's once-a-minute last-used stamp never fails a GET), /api/health says degraded with the reason while
// the last write failed for lack of space, and writes resume when space returns.
//
// The full disk is real: a small tmpfs holds the data dir and a filler file takes its last byte (root only);
// elsewhere SQLite's own SQLITE_FULL, `PRAGMA max_page_count` lowered to the file's size on the server's
// connection, refuses every write that needs a new page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { newBrain, waitForSource } from "../support/sources";
import { fillDiskWith } from "../support/fill-disk";

let s: TestServer;
/** The mount point (the tmpfs), holding the data dir and the filler. */
let dir: string;
let tmpfs = false;
let brainId: string;
let freshKey: string;
let pendingUpload: { uploadUrl: string };

/** STORAGE_FULL_MODE=pragma runs the max_page_count way also as root. */
function mountTmpfs(at: string): boolean {
  if (process.getuid?.() !== 0 || process.env.STORAGE_FULL_MODE === "pragma") return false;
  return Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", at]).exitCode === 0;
}

const execute = (sql: string) => s.ctx.database.client.execute(sql);
const filler = () => join(dir, "filler");

/** Takes the disk's (or the database file's) last free space. */
async function fillUp() {
  if (!tmpfs) {
    const [row] = (await execute("PRAGMA page_count")).rows;
    await execute(`PRAGMA max_page_count = ${Number(row![0])}`);
    return;
  }
  // An empty log: every write must grow it, on a disk with no room.
  await execute("PRAGMA wal_checkpoint(TRUNCATE)");
  fillDiskWith(filler());
}

async function freeUp() {
  if (tmpfs) rmSync(filler(), { force: true });
  else await execute("PRAGMA max_page_count = 1073741823");
}

/** A write that needs new space whatever the mode: a source whose text spans many database pages. */
const bigSource = () => s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "Tide Tables", content: "The tide turns at the harbour wall. ".repeat(8000) } });
const health = async () => expectJson(await fetch(`${s.url}/api/health`), 200);

beforeAll(async () => {
  dir = tempDir();
  tmpfs = mountTmpfs(dir);
  s = await startTestServer({}, join(dir, "data"));
  brainId = await newBrain(s, "Harbour");
  const { source } = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "Harbour Dues", content: "Boats moored in the harbour pay dues to the harbour office every month." } }), 201);
  expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  // A key never used yet: its first request stamps last_used_at, a write.
  freshKey = await newAccountKey(s.ctx.db, "Reader");
  pendingUpload = await expectJson(
    await s.api(`/api/v1/brains/${brainId}/sources/upload-url`, { method: "POST", json: { filename: "notes.txt", contentType: "text/plain", size: 2_000_000 } }),
    201,
  );
  // The job loop's own writes would race the assertions below.
  await s.jobLoop()?.stop?.();
});
afterAll(async () => {
  await freeUp().catch(() => {});
  await s?.close();
  if (tmpfs) Bun.spawnSync(["umount", "-l", dir]);
});

describe("a full disk (tmpfs when mountable, else max_page_count)", () => {
  test("before: health ok, storage ok", async () => {
    const body = await health();
    expect(body.status).toBe("ok");
    expect(body.storage).toEqual({ ok: true });
  });

  test("writes answer 507 storage_full with a plain message; health says degraded with the reason", async () => {
    await fillUp();
    const res = await bigSource();
    const body = await expectJson(res, 507);
    expect(body.error.code).toBe("storage_full");
    expect(body.error.message).toContain("out of disk space");
    expect(body.error.message).not.toContain("SQLITE");
    const degraded = await health();
    expect(degraded.status).toBe("degraded");
    expect(degraded.storage).toMatchObject({ ok: false, reason: "storage_full" });
    expect(degraded.storage.message).toContain("507");
    expect(degraded.database.ok).toBe(true);
  });

  test("reads keep working, also with a never-used key (its last-used stamp is a write)", async () => {
    const asReader = (path: string) => s.api(path, { key: freshKey });
    await expectJson(await asReader("/api/v1/account"), 200);
    await expectJson(await asReader("/api/v1/brains"), 200);
    await expectJson(await s.api("/api/v1/account"), 200);
    await expectJson(await s.api(`/api/v1/brains/${brainId}`), 200);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages`), 200);
    const context = await expectJson(await s.api(`/api/v1/brains/${brainId}/context`, { method: "POST", json: { query: "harbour dues" } }), 200);
    expect(context.context).toContain("harbour office");
    expect((await fetch(`${s.url}/metrics`)).status).toBe(200);
    if (tmpfs) expect((await health()).status).toBe("degraded"); // the stamp failed too, and said so
  });

  test("an upload's bytes on a full disk: 507, no half file left (tmpfs only)", async () => {
    if (!tmpfs) return; // the database's page limit leaves files room
    const res = await fetch(pendingUpload.uploadUrl, { method: "PUT", headers: { "content-type": "text/plain" }, body: new Uint8Array(2_000_000).fill(65) });
    expect((await expectJson(res, 507)).error.code).toBe("storage_full");
    const left = [...new Bun.Glob("**/*.part").scanSync({ cwd: dir })];
    expect(left).toEqual([]);
  });

  test("when space returns, writes resume and health is ok again", async () => {
    await freeUp();
    await expectJson(await bigSource(), 201);
    // The upload's failure is the files' own problem: only a file saved clears it.
    if (tmpfs) {
      expect((await health()).storage.full).toEqual(["files"]);
      const put = await fetch(pendingUpload.uploadUrl, { method: "PUT", headers: { "content-type": "text/plain" }, body: new Uint8Array(2_000_000).fill(65) });
      expect(put.status).toBe(200);
    }
    const body = await health();
    expect(body.status).toBe("ok");
    expect(body.storage).toEqual({ ok: true });
    await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name: "After the storm" } }), 201);
  });
});
