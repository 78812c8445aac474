// `brainbox import PATH --brain ID --sync` as a real child process against a real server process: files
// deleted from the folder since the last import are removed from the brain; sources this import did not
// make (a note, another folder's import, a connector) are never touched; without --sync nothing is removed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastLine, runCli, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";

const dataDir = tempDir();
const folder = tempDir("brainbox-import-sync-");
let server: Awaited<ReturnType<typeof spawnServer>>;
let key: string;
let env: Record<string, string>;
beforeAll(async () => {
  env = { BRAINBOX_DATA_DIR: dataDir };
  key = lastLine((await runCli(["keys", "create", "--name", "import"], env)).stdout);
  server = await spawnServer(env);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

const api = async (path: string, json?: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method: json ? "POST" : "GET",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: json ? JSON.stringify(json) : undefined,
  });
  return (await res.json()) as any;
};
const importCli = (path: string, brainId: string, extra: string[] = []) => runCli(["import", path, "--brain", brainId, "--url", server.url, "--key", key, ...extra], env);
const lines = (stdout: string) => stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
const externalIds = async (brainId: string) => ((await api(`/api/v1/brains/${brainId}/sources`)).sources as any[]).map((s) => s.externalId ?? `(${s.title})`).sort();

describe("brainbox import --sync", () => {
  test("mirrors deletes: only the sources of files this import sent and that left the folder", async () => {
    const root = join(folder, "docs");
    const other = join(folder, "other");
    mkdirSync(join(root, "guides"), { recursive: true });
    mkdirSync(other, { recursive: true });
    writeFileSync(join(root, "a.md"), "# Alpha\n\nAlpha notes on the weir.");
    writeFileSync(join(root, "guides/b.txt"), "Beta notes on the sluice.");
    writeFileSync(join(root, "guides/c.txt"), "Gamma notes on the tide.");
    writeFileSync(join(other, "z.md"), "# Zeta\n\nAnother folder's import into the same brain.");
    const brainId = (await api("/api/v1/brains", { name: "Sync import" })).brain.id as string;
    expect((await importCli(root, brainId)).code).toBe(0);
    expect((await importCli(other, brainId)).code).toBe(0);
    // A source a person added, with an externalId of the import's shape: not this import's, never removed.
    await api(`/api/v1/brains/${brainId}/sources`, { title: "Hand note", content: "Written by hand.", externalId: "file:guides/hand.txt" });
    await api(`/api/v1/brains/${brainId}/sources`, { title: "Plain note", content: "No externalId." });
    expect(await externalIds(brainId)).toEqual(["(Plain note)", "file:a.md", "file:guides/b.txt", "file:guides/c.txt", "file:guides/hand.txt", "file:z.md"]);

    rmSync(join(root, "guides/b.txt"));
    // Without --sync, a deleted file's source stays (the import only adds and updates).
    const plain = lines((await importCli(root, brainId)).stdout);
    expect(plain.at(-1)).toMatchObject({ done: true, imported: 0, unchanged: 2, removed: 0 });
    expect(await externalIds(brainId)).toContain("file:guides/b.txt");

    // With --sync: removed; nothing else is touched, and nothing changed is sent.
    const synced = await importCli(root, brainId, ["--sync"]);
    expect(synced.code).toBe(0);
    const out = lines(synced.stdout);
    expect(out.filter((l) => l.status === "removed")).toEqual([expect.objectContaining({ file: "guides/b.txt" })]);
    expect(out.at(-1)).toMatchObject({ done: true, imported: 0, unchanged: 2, removed: 1, failed: 0 });
    expect(await externalIds(brainId)).toEqual(["(Plain note)", "file:a.md", "file:guides/c.txt", "file:guides/hand.txt", "file:z.md"]);

    // Again with nothing changed: nothing sent, nothing removed.
    expect(lines((await importCli(root, brainId, ["--sync"])).stdout).at(-1)).toMatchObject({ imported: 0, unchanged: 2, removed: 0 });

    // A whole folder deleted, a file re-added: the re-added one is imported again, the folder's files removed.
    rmSync(join(root, "guides"), { recursive: true });
    writeFileSync(join(root, "guides.md"), "# Guides\n\nThe guides moved into one page.");
    const third = lines((await importCli(root, brainId, ["--sync"])).stdout);
    expect(third.filter((l) => l.status === "removed").map((l) => l.file)).toEqual(["guides/c.txt"]);
    expect(third.at(-1)).toMatchObject({ imported: 1, removed: 1 });
    expect(await externalIds(brainId)).toEqual(["(Plain note)", "file:a.md", "file:guides.md", "file:guides/hand.txt", "file:z.md"]);
  });

  test("a file whose source was removed by hand meanwhile is forgotten, not an error; a wrong key removes nothing", async () => {
    const root = join(folder, "hand");
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, "top.md"), "# Top\n\nTop page.");
    writeFileSync(join(root, "gone.md"), "# Gone\n\nSoon deleted.");
    const brainId = (await api("/api/v1/brains", { name: "Hand import" })).brain.id as string;
    expect((await importCli(root, brainId)).code).toBe(0);
    const gone = ((await api(`/api/v1/brains/${brainId}/sources`)).sources as any[]).find((x) => x.externalId === "file:gone.md");
    await fetch(`${server.url}/api/v1/brains/${brainId}/sources/${gone.id}`, { method: "DELETE", headers: { authorization: `Bearer ${key}` } });
    rmSync(join(root, "gone.md"));
    const wrongKey = await runCli(["import", root, "--brain", brainId, "--url", server.url, "--key", "bb_nope", "--sync"], env);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain("401");
    const synced = await importCli(root, brainId, ["--sync"]);
    expect(synced.code).toBe(0);
    expect(lines(synced.stdout).at(-1)).toMatchObject({ done: true, unchanged: 1, removed: 0, failed: 0 });
    expect(await externalIds(brainId)).toEqual(["file:top.md"]);
  });
});
