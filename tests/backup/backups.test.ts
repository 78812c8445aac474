// Backups over HTTP (admin only, a job with progress, download, list, delete, retention) and restore's
// refusals of a damaged archive, a newer schema and a data dir that is not empty, on a real server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/db/client";
import { loadConfig } from "../../src/config";
import { backupSourceOf } from "../../src/modules/backups/cli";
import { writeBackup } from "../../src/modules/backups/create";
import { latestMigration } from "../../src/modules/backups/manifest";
import { restoreBackup } from "../../src/modules/backups/restore";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { addTextsReady, newBrain } from "../support/sources";
import { waitFor } from "../support/wait";
import { readEntries, withManifest, writeEntries, type ArchiveEntry } from "./archive";

let s: TestServer;
let brainId: string;
let otherKey: string;
let archive: string;
let entries: ArchiveEntry[];
const UPLOAD_KEY = "brains/b/sources/s/handbook.txt";
const UPLOAD = "The handbook file as it was uploaded.\n";

async function backupReady(): Promise<any> {
  const { backup } = await expectJson(await s.api("/api/v1/admin/backups", { method: "POST" }), 202);
  expect(backup.status).toBe("running");
  let last: any;
  await waitFor(async () => {
    last = (await expectJson(await s.api(`/api/v1/admin/backups/${backup.id}`), 200)).backup;
    return last.status !== "running";
  });
  return last;
}

const refusal = async (path: string, into = tempDir()) => {
  const error = await restoreBackup(path, into).then(() => null, (e) => e);
  expect(error).not.toBeNull();
  // A refused restore leaves the data dir as it found it: empty.
  expect(readdirSync(into)).toEqual([]);
  return error as { code: string; message: string };
};

beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_BACKUP_KEEP: "2" });
  brainId = await newBrain(s, "Backed up");
  await addTextsReady(s, brainId, {
    "Harbour opening hours": "The Marren harbour office opens at seven in the morning and closes at six.",
    "Ferry timetable": "The ferry to Osk leaves the Marren harbour every two hours from eight.",
  });
  await s.ctx.storage.write(UPLOAD_KEY, new TextEncoder().encode(UPLOAD), "text/plain");
  otherKey = await newAccountKey(s.ctx.db, "Not the admin");
  const ready = await backupReady();
  expect(ready.status).toBe("ready");
  const res = await s.api(`/api/v1/admin/backups/${ready.id}/download`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/x-tar");
  archive = join(tempDir(), "backup.tar");
  writeFileSync(archive, new Uint8Array(await res.arrayBuffer()));
  entries = await readEntries(archive);
});

afterAll(() => s.close());

describe("backups over HTTP", () => {
  test("only the installation's admin may back up: 403 for anyone else, 401 without a key", async () => {
    for (const [method, path] of [["POST", "/api/v1/admin/backups"], ["GET", "/api/v1/admin/backups"], ["GET", "/api/v1/admin/backups/bak_x"], ["GET", "/api/v1/admin/backups/bak_x/download"], ["DELETE", "/api/v1/admin/backups/bak_x"]] as const) {
      expect((await expectJson(await s.api(path, { method, key: otherKey }), 403)).error.code).toBe("forbidden");
      expect((await s.api(path, { method, key: null })).status).toBe(401);
    }
  });

  test("one backup at a time: a second one started meanwhile is 409", async () => {
    const [a, b] = await Promise.all([s.api("/api/v1/admin/backups", { method: "POST" }), s.api("/api/v1/admin/backups", { method: "POST" })]);
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    const running = (await (a.status === 202 ? a : b).json()).backup;
    expect((await expectJson(a.status === 409 ? a : b, 409)).error.code).toBe("conflict");
    await waitFor(async () => (await expectJson(await s.api(`/api/v1/admin/backups/${running.id}`), 200)).backup.status !== "running");
  });

  test("a ready backup tells its progress, size, schema and what it holds", async () => {
    const { backups } = await expectJson(await s.api("/api/v1/admin/backups"), 200);
    const b = backups[0];
    expect(b).toMatchObject({ status: "ready", phase: "done", schema: latestMigration().tag, uploadsIncluded: true, error: null });
    expect(b.bytesTotal).toBeGreaterThan(0);
    expect(b.bytesDone).toBe(b.bytesTotal);
    expect(b.size).toBeGreaterThan(b.bytesTotal);
    const manifest = JSON.parse(new TextDecoder().decode(entries[0]!.data));
    expect(entries.map((e) => e.name)).toEqual(["manifest.json", "brainbox.db", `uploads/${UPLOAD_KEY}`]);
    expect(manifest.files.map((f: any) => f.path)).toEqual(["brainbox.db", `uploads/${UPLOAD_KEY}`]);
    expect(manifest.schema.migration).toBe(latestMigration().tag);
    expect(manifest.files[1].sha256).toBe(new Bun.CryptoHasher("sha256").update(UPLOAD).digest("hex"));
  });

  test("the audit log records the backup and its download", async () => {
    const rows = await s.ctx.database.client.execute("SELECT action FROM audit_events WHERE target_kind = 'backup'");
    expect(rows.rows.map((r) => r.action)).toEqual(expect.arrayContaining(["backup.created", "backup.downloaded"]));
  });

  test("retention keeps the newest BRAINBOX_BACKUP_KEEP; delete removes one; an unknown id is 404", async () => {
    await backupReady();
    const third = await backupReady();
    const { backups } = await expectJson(await s.api("/api/v1/admin/backups"), 200);
    expect(backups.length).toBe(2);
    expect(backups[0].id).toBe(third.id);
    expect(readdirSync(join(s.dataDir, "backups")).sort()).toEqual(backups.flatMap((b: any) => [`${b.id}.json`, `${b.id}.tar`]).sort());
    expect((await s.api(`/api/v1/admin/backups/${third.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await expectJson(await s.api(`/api/v1/admin/backups/${third.id}`), 404)).error.code).toBe("not_found");
    expect((await s.api(`/api/v1/admin/backups/${third.id}/download`)).status).toBe(404);
    expect((await s.api("/api/v1/admin/backups/../../etc/passwd")).status).toBe(404);
  });
});

describe("what a backup copies", () => {
  test("with uploads in S3-compatible storage: the database only, and the manifest says the objects are not copied", async () => {
    const config = loadConfig({ BRAINBOX_DATA_DIR: s.dataDir, BRAINBOX_S3_BUCKET: "uploads", BRAINBOX_S3_ACCESS_KEY_ID: "k", BRAINBOX_S3_SECRET_ACCESS_KEY: "s" });
    const source = backupSourceOf(config, "test");
    expect(source.uploadsDir).toBeNull();
    const { manifest } = await writeBackup(source, join(tempDir(), "s3.tar"));
    expect(manifest.files.map((f) => f.path)).toEqual(["brainbox.db"]);
    expect(manifest.storage).toMatchObject({ kind: "s3", uploadsIncluded: false });
    expect(manifest.storage.note).toContain("not copied");
  });

  test("with a libSQL server there is no file to copy: refused in plain words", async () => {
    const config = loadConfig({ BRAINBOX_DATA_DIR: s.dataDir, BRAINBOX_DATABASE_URL: "http://127.0.0.1:1" });
    const error = await writeBackup(backupSourceOf(config, "test"), join(tempDir(), "remote.tar")).then(() => null, (e) => e);
    expect(error.code).toBe("invalid_request");
    expect(error.message).toContain("libSQL server");
  });
});

describe("restore", () => {
  test("restores the archive into an empty dir: the same database and uploads", async () => {
    const into = join(tempDir(), "new-data-dir");
    const result = await restoreBackup(archive, into);
    expect(result.files).toBe(2);
    expect(await Bun.file(join(into, "uploads", UPLOAD_KEY)).text()).toBe(UPLOAD);
    const restored = openDatabase({ dataDir: into });
    try {
      const titles = await restored.client.execute({ sql: "SELECT title FROM sources WHERE brain_id = ? ORDER BY title", args: [brainId] });
      expect(titles.rows.map((r) => r.title)).toEqual(["Ferry timetable", "Harbour opening hours"]);
    } finally {
      restored.close();
    }
  });

  test("refuses a data dir that is not empty, and touches nothing in it", async () => {
    const into = tempDir();
    writeFileSync(join(into, "keep.txt"), "mine");
    const error = await restoreBackup(archive, into).then(() => null, (e) => e);
    expect(error.code).toBe("conflict");
    expect(error.message).toContain("not empty");
    expect(readdirSync(into)).toEqual(["keep.txt"]);
  });

  test("refuses a file whose bytes do not match its checksum, naming the file", async () => {
    const altered = entries.map((e) => (e.name.startsWith("uploads/") ? { ...e, data: new TextEncoder().encode(UPLOAD.replace("handbook", "HANDBOOK")) } : e));
    const error = await refusal(await writeEntries(join(tempDir(), "altered.tar"), altered));
    expect(error.code).toBe("invalid_request");
    expect(error.message).toContain(`uploads/${UPLOAD_KEY} has the wrong checksum`);
  });

  test("refuses an archive with a file missing, naming it", async () => {
    const error = await refusal(await writeEntries(join(tempDir(), "missing.tar"), entries.filter((e) => !e.name.startsWith("uploads/"))));
    expect(error.message).toContain(`uploads/${UPLOAD_KEY} is missing from the archive`);
  });

  test("refuses a cut archive, naming the file that is short", async () => {
    const bytes = await Bun.file(archive).bytes();
    const cut = join(tempDir(), "cut.tar");
    writeFileSync(cut, bytes.subarray(0, 512 * 4 + 1000));
    const error = await refusal(cut);
    expect(error.message).toContain("brainbox.db is 1000 bytes");
  });

  test("refuses a schema newer than this binary knows", async () => {
    const newer = withManifest(entries, (m) => (m.schema = { migration: "0099_from_the_future", when: latestMigration().when + 1 }));
    const error = await refusal(await writeEntries(join(tempDir(), "newer.tar"), newer));
    expect(error.message).toContain("0099_from_the_future) is newer than this brainbox");
  });

  test("refuses a manifest naming a path outside the data dir, an entry it does not list, and a file that is not a backup", async () => {
    const traversal = withManifest(entries, (m) => m.files.push({ path: "../outside.txt", size: 1, sha256: "0".repeat(64) }));
    expect((await refusal(await writeEntries(join(tempDir(), "t.tar"), traversal))).message).toContain('unsafe path: "../outside.txt"');
    const extra = [...entries, { name: "uploads/extra.bin", data: new Uint8Array([1]) }];
    expect((await refusal(await writeEntries(join(tempDir(), "x.tar"), extra))).message).toContain("holds uploads/extra.bin, which its manifest does not list");
    const notTar = join(tempDir(), "not.tar");
    writeFileSync(notTar, "just some text, not an archive at all".repeat(40));
    expect((await refusal(notTar)).message).toContain("This backup cannot be restored");
  });
});
