// `brainbox backup` while a server runs on the data dir, `brainbox restore` into an empty one, and a server
// started on the restored dir answering the same questions with the same citations; `import --vault`
// from an export, all as real child processes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../../src/db/client";
import { lastLine, runCli, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";
import { WAIT_BOUND_MS } from "../../support/wait";

const dataDir = tempDir();
const restoredDir = join(tempDir(), "restored");
const work = tempDir();
let server: Awaited<ReturnType<typeof spawnServer>>;
let restored: Awaited<ReturnType<typeof spawnServer>> | undefined;
let key: string;
let brainId: string;
const env = { BRAINBOX_DATA_DIR: dataDir };

const SOURCES: Record<string, string> = {
  "Marren harbour": "Marren harbour is run by the Osk Ferry Company. The harbour master Ada Lindqvist keeps the tide tables.",
  "Osk ferry": "The ferry to Osk island leaves Marren harbour every two hours, from eight in the morning until eight at night.",
  "Pilot school": "The pilot school of the Osk Ferry Company trains twelve harbour pilots a year in the winter months.",
};
const QUESTIONS = ["Who keeps the tide tables?", "How often does the ferry to Osk leave?", "How many pilots does the pilot school train?"];

const api = async (base: string, path: string, init: { method?: string; json?: unknown } = {}) => {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.json ? "POST" : "GET"),
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: init.json ? JSON.stringify(init.json) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
};

/** The answer and its citations, without the server's address (the two servers listen on different ports). */
async function answers(base: string, brain: string) {
  const out = [];
  for (const question of QUESTIONS) {
    const { status, body } = await api(base, `/api/v1/brains/${brain}/ask`, { json: { question } });
    expect(status).toBe(200);
    out.push({ answer: body.answer.split(base).join(""), citations: body.citations.map((c: any) => ({ slug: c.slug, title: c.title })) });
  }
  return out;
}

/** Until the server on `dir` has no job queued or running (concept pages refreshed, vectors written). */
async function jobsDone(dir: string) {
  const database = openDatabase({ dataDir: dir });
  try {
    const deadline = Date.now() + WAIT_BOUND_MS;
    while (Number((await database.client.execute("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')")).rows[0]!.n) > 0) {
      if (Date.now() > deadline) throw new Error(`jobs still running in ${dir}`);
      await Bun.sleep(100);
    }
  } finally {
    database.close();
  }
}

/** Until every source of the brain is ready (the late note added during the backup included). */
async function settled(base: string, brain: string, count: number) {
  const deadline = Date.now() + WAIT_BOUND_MS;
  for (;;) {
    const { body } = await api(base, `/api/v1/brains/${brain}/sources`);
    if (body.sources.length >= count && body.sources.every((s: any) => s.status === "ready")) return;
    if (Date.now() > deadline) throw new Error(`sources not ready: ${JSON.stringify(body)}`);
    await Bun.sleep(100);
  }
}

beforeAll(async () => {
  key = lastLine((await runCli(["keys", "create", "--name", "backup"], env)).stdout);
  server = await spawnServer(env);
  brainId = (await api(server.url, "/api/v1/brains", { json: { name: "Harbour" } })).body.brain.id;
  for (const [title, content] of Object.entries(SOURCES)) await api(server.url, `/api/v1/brains/${brainId}/sources`, { json: { title, content } });
  await settled(server.url, brainId, 3);
});

afterAll(async () => {
  await restored?.stop();
  await server?.stop();
  for (const dir of [dataDir, restoredDir, work]) rmSync(dir, { recursive: true, force: true });
});

describe("backup and restore on a running server", () => {
  test("backup while the server runs, restore into an empty dir, the same answers and citations", async () => {
    const before = await answers(server.url, brainId);
    expect(before.every((a) => a.citations.length > 0)).toBe(true);
    // A source added while the backup runs: the copy holds either state, consistently.
    const adding = api(server.url, `/api/v1/brains/${brainId}/sources`, { json: { title: "Late note", content: "Added during the backup." } });
    const backup = await runCli(["backup", work], env);
    await adding;
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    const archive = join(work, readdirSync(work).find((n) => n.endsWith(".tar"))!);
    expect(backup.stdout).toContain(`Backup written to ${archive}`);

    const restore = await runCli(["restore", archive], { BRAINBOX_DATA_DIR: restoredDir });
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain("Restored 1 files");

    const again = await runCli(["restore", archive], { BRAINBOX_DATA_DIR: restoredDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("is not empty");

    restored = await spawnServer({ BRAINBOX_DATA_DIR: restoredDir });
    const sourcesInCopy = (await api(restored.url, `/api/v1/brains/${brainId}/sources`)).body.sources.length;
    expect([3, 4]).toContain(sourcesInCopy); // the late note is in the copy or not, never half of it
    await settled(restored.url, brainId, sourcesInCopy);
    await settled(server.url, brainId, 4);
    await jobsDone(restoredDir);
    await jobsDone(dataDir);
    expect(await answers(restored.url, brainId)).toEqual(await answers(server.url, brainId));
    expect(await answers(restored.url, brainId)).toEqual(before);
  });

  test("backup refuses an existing file; restore names a damaged archive", async () => {
    const existing = join(work, "taken.tar");
    writeFileSync(existing, "mine");
    const taken = await runCli(["backup", existing], env);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("already exists");
    const garbage = await runCli(["restore", existing], { BRAINBOX_DATA_DIR: join(tempDir(), "fresh") });
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toContain("This backup cannot be restored");
  });

  test("import --vault: an export of the brain into a new brain, from a zip", async () => {
    const res = await fetch(`${server.url}/api/v1/brains/${brainId}/export`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const zip = join(work, "vault.zip");
    writeFileSync(zip, new Uint8Array(await res.arrayBuffer()));
    const copy = (await api(server.url, "/api/v1/brains", { json: { name: "Copy" } })).body.brain.id;
    const run = await runCli(["import", "--vault", zip, "--brain", copy, "--url", server.url, "--key", key], env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const original = (await api(server.url, `/api/v1/brains/${brainId}/pages?limit=100`)).body.pages.map((p: any) => p.title).sort();
    expect(run.stdout).toContain(`Imported ${original.length} notes`);
    const imported = (await api(server.url, `/api/v1/brains/${copy}/pages?limit=100`)).body.pages.map((p: any) => p.title).sort();
    expect(imported).toEqual(original);
  });
});
