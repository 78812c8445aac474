// The folder kind against real folders: only under BRAINBOX_CONNECTOR_FOLDER_ROOTS (by real path, so a
// symlink out of them is refused, when saved and when synced); a file whose size and time did not change is
// not read, one touched but equal is read and not written, removed files are pruned.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { allProcessed, createConnector, newBrain, sourcesOf, syncAndWait } from "./helpers";

let s: TestServer;
let roots: string;
let outside: string;
beforeAll(async () => {
  roots = tempDir();
  outside = tempDir();
  s = await startTestServer({ BRAINBOX_CONNECTOR_FOLDER_ROOTS: roots });
});
afterAll(() => s.close());

const put = (dir: string, path: string, text: string) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const rowsOf = async (brainId: string) =>
  (await s.ctx.database.client.execute({ sql: "SELECT id, external_id, revision, updated_at, content FROM sources WHERE brain_id = ? ORDER BY external_id", args: [brainId] })).rows.map((r) => ({ ...r }));

describe("folder connector", () => {
  test("syncs a share: a re-sync of nothing writes nothing, a touched but equal file writes nothing, a change updates only it, a removal prunes", async () => {
    const share = join(roots, "share");
    put(share, "handbook.md", "# Handbook\n\nThe survey team's handbook.");
    put(share, "guides/boats.html", "<html><head><title>Boats</title></head><body><p>The boat is moored at the north pier.</p></body></html>");
    put(share, "guides/tides.txt", "Tide tables are printed monthly.");
    put(share, "photo.jpg", "not selected");
    put(share, ".trash/old.md", "# Old\n\nHidden folders are not content.");
    put(outside, "secret.md", "# Secret\n\nOutside the allowed folders.");
    symlinkSync(join(outside, "secret.md"), join(share, "escape.md"));
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "folder", name: "Share", config: { path: share }, schedule: "manual" });
    const first = await syncAndWait(s, brainId, c.id);
    expect(first).toMatchObject({ status: "succeeded", counts: { added: 3, updated: 0, unchanged: 0, removed: 0, failed: 0 } });
    expect(first.errors.join("\n")).toContain("escape.md: a symlink that leads out of the allowed folders");
    const sources = await allProcessed(s, brainId);
    expect(sources.map((x) => x.title).sort()).toEqual(["Boats", "Handbook", "tides"]);
    expect(JSON.stringify(await rowsOf(brainId))).not.toContain("Secret");
    const rows = await rowsOf(brainId);

    const second = await syncAndWait(s, brainId, c.id);
    expect(second).toMatchObject({ status: "succeeded", counts: { added: 0, updated: 0, unchanged: 3, removed: 0, failed: 0 } });
    expect(await rowsOf(brainId)).toEqual(rows);

    // Touched (a new time) but the same bytes: read and hashed, nothing written.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(share, "handbook.md"), later, later);
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ counts: { added: 0, updated: 0, unchanged: 3 } });
    expect(await rowsOf(brainId)).toEqual(rows);

    put(share, "guides/tides.txt", "Tide tables are now printed weekly.");
    rmSync(join(share, "guides/boats.html"));
    const third = await syncAndWait(s, brainId, c.id);
    expect(third).toMatchObject({ status: "succeeded", counts: { added: 0, updated: 1, unchanged: 1, removed: 1, failed: 0 } });
    const after = await rowsOf(brainId);
    expect(after.map((r) => String(r.external_id).replace(/^[^:]+:/, ""))).toEqual(["guides/tides.txt", "handbook.md"]);
    expect(after.find((r) => String(r.external_id).endsWith("handbook.md"))).toEqual(rows.find((r) => String(r.external_id).endsWith("handbook.md")));
    expect(String(after.find((r) => String(r.external_id).endsWith("tides.txt"))!.content)).toContain("weekly");
  });

  test("refused when saved: outside the roots, through a symlink out of them, not absolute, not a folder (422 naming config.path)", async () => {
    const brainId = await newBrain(s);
    const refused = async (config: Record<string, unknown>) => {
      const res = await s.api(`/api/v1/brains/${brainId}/connectors`, { method: "POST", json: { kind: "folder", name: "Bad", config, schedule: "manual" } });
      const body = await expectJson(res, 422);
      expect(body.error.details?.field ?? body.error.field).toBe("config.path");
      return body.error.message as string;
    };
    expect(await refused({ path: outside })).toContain("BRAINBOX_CONNECTOR_FOLDER_ROOTS");
    expect(await refused({ path: join(roots, "..") })).toContain("outside");
    symlinkSync(outside, join(roots, "link-out"));
    expect(await refused({ path: join(roots, "link-out") })).toContain("leads to");
    expect(await refused({ path: "share" })).toContain("absolute");
    put(roots, "file.md", "# A file");
    expect(await refused({ path: join(roots, "file.md") })).toContain("not a folder");
    expect(await refused({ path: join(roots, "missing") })).toContain("does not exist");
    expect(await sourcesOf(s, brainId)).toEqual([]);
  });

  test("checked again when synced: a folder swapped for a symlink out of the roots fails the run and keeps the sources", async () => {
    const dir = join(roots, "swapped");
    put(dir, "a.md", "# Alpha\n\nInside.");
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "folder", name: "Swapped", config: { path: dir }, schedule: "manual" });
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ counts: { added: 1 } });
    await allProcessed(s, brainId);
    rmSync(dir, { recursive: true });
    put(outside, "b.md", "# Beta\n\nOutside.");
    symlinkSync(outside, dir);
    const run = await syncAndWait(s, brainId, c.id);
    expect(run.status).toBe("failed");
    expect(run.errors.join("\n")).toContain("outside the folders allowed by BRAINBOX_CONNECTOR_FOLDER_ROOTS");
    expect((await sourcesOf(s, brainId)).map((x) => x.title)).toEqual(["Alpha"]);
  });

  test("a server without BRAINBOX_CONNECTOR_FOLDER_ROOTS reads no folder", async () => {
    const t = await startTestServer();
    try {
      const brainId = await newBrain(t);
      const res = await t.api(`/api/v1/brains/${brainId}/connectors`, { method: "POST", json: { kind: "folder", name: "Any", config: { path: roots } } });
      expect((await expectJson(res, 422)).error.message).toContain("set BRAINBOX_CONNECTOR_FOLDER_ROOTS");
    } finally {
      await t.close();
    }
  });
});
