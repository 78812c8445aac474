// `brainbox import PATH --brain ID` as a real child process against a real server process.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../../src/db/client";
import { lastLine, runCli, spawnServer } from "../../support/cli";
import { buildDocx, buildPdf } from "../../support/documents";
import { tempDir } from "../../support/server";

const dataDir = tempDir();
const folder = tempDir("brainbox-import-");
let server: Awaited<ReturnType<typeof spawnServer>>;
let key: string;
let env: Record<string, string>;
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

beforeAll(async () => {
  // A short lease: jobs the killed server held are claimed again within seconds.
  env = { BRAINBOX_DATA_DIR: dataDir, BRAINBOX_JOB_LEASE_MS: "1500" };
  key = lastLine((await runCli(["keys", "create", "--name", "import"], env)).stdout);
  server = await spawnServer(env);
});

const api = async (path: string, init: { method?: string; json?: unknown } = {}) => {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.json ? "POST" : "GET"),
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: init.json ? JSON.stringify(init.json) : undefined,
  });
  return (await res.json()) as any;
};
const newBrain = async () => (await api("/api/v1/brains", { json: { name: `Import ${crypto.randomUUID().slice(0, 6)}` } })).brain.id as string;
const importCli = (path: string, brainId: string, extra: string[] = []) => runCli(["import", path, "--brain", brainId, "--url", server.url, "--key", key, ...extra], env);
const lines = (stdout: string) => stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));

async function waitAllSettled(brainId: string, count: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { sources } = await api(`/api/v1/brains/${brainId}/sources`);
    if (sources.length >= count && sources.every((s: any) => s.status === "ready" || s.status === "failed")) return sources;
    if (Date.now() > deadline) throw new Error(`not settled: ${JSON.stringify(sources.map((s: any) => s.status))}`);
    await Bun.sleep(100);
  }
}

describe("brainbox import", () => {
  test("imports every kind of file recursively, skips what it cannot read with a reason, then skips unchanged files", async () => {
    const root = join(folder, "docs");
    mkdirSync(join(root, "guides/deep"), { recursive: true });
    writeFileSync(join(root, "readme.md"), "# Tide tables\n\nTide tables predict high water at the harbour.");
    writeFileSync(join(root, "guides/notes.txt"), "Buoys mark the channel entrance in red and green.");
    writeFileSync(join(root, "guides/page.html"), "<html><head><title>Lighthouse</title></head><body><article><p>The lighthouse flashes every ten seconds at night.</p></article></body></html>");
    writeFileSync(join(root, "guides/deep/manual.pdf"), buildPdf(["Anchoring needs five times the depth in chain."], "Anchoring"));
    writeFileSync(join(root, "guides/deep/policy.docx"), await buildDocx([{ text: "Mooring fees", style: "Heading1" }, { text: "Mooring costs twelve euros a night." }]));
    writeFileSync(join(root, "broken.pdf"), "%PDF-1.4 this is not really a pdf");
    writeFileSync(join(root, "picture.png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(join(root, ".hidden.md"), "not content");
    symlinkSync("..", join(root, "guides/deep/up")); // a loop: deep/up → guides → deep → ...
    symlinkSync(join(root, "nowhere.txt"), join(root, "dangling.txt"));
    const locked = join(root, "locked.txt");
    writeFileSync(locked, "secret");
    chmodSync(locked, 0o000);
    const runningAsRoot = process.getuid?.() === 0; // root reads a mode-000 file anyway

    const brainId = await newBrain();
    const first = await importCli(root, brainId);
    const out = lines(first.stdout);
    const by = (file: string) => out.find((l) => l.file === file);
    for (const file of ["readme.md", "guides/notes.txt", "guides/page.html", "guides/deep/manual.pdf", "guides/deep/policy.docx"])
      expect(by(file)).toMatchObject({ status: "imported", created: true });
    expect(by("broken.pdf")).toMatchObject({ status: "skipped" });
    expect(by("broken.pdf").reason).toContain("PDF");
    expect(by("picture.png")).toMatchObject({ status: "skipped", reason: 'unsupported file type ".png"' });
    expect(by("guides/deep/up").reason).toContain("symlink loop");
    expect(by("dangling.txt")).toMatchObject({ status: "skipped", reason: "broken symlink" });
    expect(by(".hidden.md")).toBeUndefined();
    if (!runningAsRoot) expect(by("locked.txt")).toMatchObject({ status: "skipped" });
    const imported = runningAsRoot ? 6 : 5;
    expect(out.at(-1)).toMatchObject({ done: true, imported, failed: 0 });
    expect(first.code).toBe(0);

    const sources = await waitAllSettled(brainId, imported);
    expect(sources).toHaveLength(imported);
    expect(sources.every((s: any) => s.status === "ready")).toBe(true);
    expect(sources.map((s: any) => s.externalId).sort()).toContain("file:guides/deep/policy.docx");
    const ask = await api(`/api/v1/brains/${brainId}/context`, { json: { query: "how much does mooring cost a night" } });
    expect(ask.context).toContain("twelve euros");

    // Again: nothing changed, nothing is sent.
    const again = lines((await importCli(root, brainId)).stdout);
    expect(again.filter((l) => l.status === "imported")).toHaveLength(0);
    expect(again.at(-1)).toMatchObject({ done: true, imported: 0, unchanged: imported });
    // One file changes: only it is sent, and its source is updated in place.
    writeFileSync(join(root, "guides/notes.txt"), "Buoys mark the channel entrance in red and green, lit at night.");
    const third = lines((await importCli(root, brainId)).stdout);
    expect(third.filter((l) => l.status === "imported")).toEqual([expect.objectContaining({ file: "guides/notes.txt", created: false })]);
    const after = await waitAllSettled(brainId, imported);
    expect(after).toHaveLength(imported);
  });

  test("bad arguments and a wrong key give clear errors", async () => {
    const brainId = await newBrain();
    const noBrain = await runCli(["import", folder, "--url", server.url, "--key", key], env);
    expect(noBrain.code).toBe(2);
    expect(noBrain.stderr).toContain("--brain");
    const missing = await runCli(["import", join(folder, "nope"), "--brain", brainId, "--url", server.url, "--key", key], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("does not exist");
    mkdirSync(join(folder, "one"), { recursive: true });
    writeFileSync(join(folder, "one/a.txt"), "alpha");
    const badKey = await runCli(["import", join(folder, "one"), "--brain", brainId, "--url", server.url, "--key", "bb_nope"], env);
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain("401");
    // The server and key can come from the environment, as --help and the README say.
    const fromEnv = await runCli(["import", join(folder, "one"), "--brain", brainId], { ...env, BRAINBOX_URL: server.url, BRAINBOX_API_KEY: key });
    expect(fromEnv.code).toBe(0);
    expect(lines(fromEnv.stdout).at(-1)).toMatchObject({ done: true, imported: 1, failed: 0 });
    // Nothing changed since: the key is still checked first, and a wrong one or an unknown brain fails.
    const badKeyUnchanged = await runCli(["import", join(folder, "one"), "--brain", brainId, "--url", server.url, "--key", "bb_nope"], env);
    expect(badKeyUnchanged.code).toBe(1);
    expect(badKeyUnchanged.stderr).toContain("refused the API key: 401");
    expect(badKeyUnchanged.stdout).toBe("");
    const noSuchBrain = await runCli(["import", join(folder, "one"), "--brain", "brn_nope", "--url", server.url, "--key", key], env);
    expect(noSuchBrain.code).toBe(1);
    expect(noSuchBrain.stderr).toMatch(/brain brn_nope cannot be reached with this key: 40[34]/);
    const badUrl = await runCli(["import", join(folder, "one"), "--brain", brainId], { ...env, BRAINBOX_URL: "not a url", BRAINBOX_API_KEY: key });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain("BRAINBOX_URL must be an absolute URL");
  });

  test("kill -9 of the server during a bulk import: after a restart and a re-run, every file is there exactly once", async () => {
    const root = join(folder, "bulk");
    mkdirSync(root, { recursive: true });
    const total = 1500;
    for (let i = 0; i < total; i++) writeFileSync(join(root, `note-${String(i).padStart(4, "0")}.txt`), `Harbour log ${i}: vessel ${i} moored at berth ${i % 40} with ${i % 9} crew.`);
    const brainId = await newBrain();
    // Small batches (the server's body cap is far above), so the kill lands between and inside batches.
    const run = Bun.spawn([process.execPath, join(import.meta.dir, "../../../src/main.ts"), "import", root, "--brain", brainId, "--url", server.url, "--key", key, "--batch-bytes", "20000"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = run.stdout.getReader();
    let seen = "";
    while ((seen.match(/"imported"/g) ?? []).length < 300) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    await server.stop("SIGKILL");
    run.kill("SIGKILL");
    await run.exited;
    server = await spawnServer(env);
    const rerun = await importCli(root, brainId);
    expect(rerun.code).toBe(0);
    const sources = await waitAllSettled(brainId, total, 60_000);
    expect(sources).toHaveLength(total);
    expect(new Set(sources.map((s: any) => s.externalId)).size).toBe(total);
    expect(sources.every((s: any) => s.status === "ready")).toBe(true);
    const db = openDatabase({ dataDir });
    // A source is ready a moment before its job is marked done: wait for the jobs too.
    const jobsLeft = async () =>
      Number((await db.client.execute({ sql: "SELECT count(*) AS n FROM jobs j JOIN sources s ON s.id = j.subject_id WHERE s.brain_id = ? AND j.status != 'done'", args: [brainId] })).rows[0]!.n);
    for (const deadline = Date.now() + 30_000; (await jobsLeft()) > 0 && Date.now() < deadline; ) await Bun.sleep(100);
    const perSource = await db.client.execute({ sql: "SELECT p.source_id, count(*) AS n FROM pages p JOIN sources s ON s.id = p.source_id WHERE s.brain_id = ? GROUP BY p.source_id", args: [brainId] });
    expect(perSource.rows).toHaveLength(total);
    expect(perSource.rows.every((r) => Number(r.n) === 1)).toBe(true);
    const jobs = await db.client.execute({ sql: "SELECT j.status, count(*) AS n FROM jobs j JOIN sources s ON s.id = j.subject_id WHERE s.brain_id = ? GROUP BY j.status", args: [brainId] });
    expect(jobs.rows.map((r) => [r.status, Number(r.n)])).toEqual([["done", total]]);
    expect((await db.client.execute("PRAGMA integrity_check")).rows[0]![0]).toBe("ok");
    db.close();
  });
});
