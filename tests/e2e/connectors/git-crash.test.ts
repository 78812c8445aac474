// Kill -9 the server in the middle of a git connector's run, twice: after each restart the run continues
// where it was (files handled before a kill are not written again), ends once, and every selected file of the
// repository is one source, exactly once; the run's counts add up to the files.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openDatabase } from "../../../src/db/client";
import { hasGit, makeRepo } from "../../connectors/git-repo";
import { cliKeyHeaders, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";

const dataDir = tempDir();
const gitRoot = tempDir();
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(gitRoot, { recursive: true, force: true });
});

/** Enough files that a run is still going when the test kills the server (it kills at a count, not a time). */
const TOTAL = 400;
const KILL_AT = [60, 200];

function repositoryFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < TOTAL; i++) {
    const folder = `docs/part-${Math.floor(i / 50)}`;
    files[`${folder}/note-${i}.md`] = `# Note ${i}\n\nNote ${i} records how lock ${i} was rebuilt after the winter flood of year ${1900 + i}.\n\nThe keeper of lock ${i} kept a log of every vessel.\n`;
  }
  // Files the default patterns leave out: never a source, never counted.
  files["src/tool.ts"] = "export const tool = 1;\n";
  files["images/map.png"] = "not an image, not a document";
  return files;
}

test.skipIf(!hasGit)("a git run survives kill -9: resumed, not restarted; every file once, counts add up", async () => {
  const repo = makeRepo(gitRoot, "handbook", repositoryFiles());
  const env = { BRAINBOX_DATA_DIR: dataDir, BRAINBOX_CONNECTOR_GIT_ROOTS: gitRoot, BRAINBOX_JOB_LEASE_MS: "1500" };
  const headers = await cliKeyHeaders(env, "git-crash");
  let server = await spawnServer(env);
  const api = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { ...init, headers });
  const brain = (await (await api("/api/v1/brains", { method: "POST", body: JSON.stringify({ name: "Git crash" }) })).json()) as any;
  const base = `/api/v1/brains/${brain.brain.id}/connectors`;
  const created = await api(base, { method: "POST", body: JSON.stringify({ kind: "git", name: "Handbook repo", config: { path: repo.bare, branch: "main" } }) });
  expect(created.status).toBe(201);
  const cid = ((await created.json()) as any).connector.id;
  const started = await api(`${base}/${cid}/sync`, { method: "POST" });
  expect(started.status).toBe(202);
  const runId = ((await started.json()) as any).run.id;

  const db = openDatabase({ dataDir });
  const q = async (sql: string, ...args: any[]) => (await db.client.execute({ sql, args })).rows;
  const handled = async () => Number((await q("SELECT count(*) AS n FROM connector_items WHERE done_run = ?", runId))[0]!.n);
  const doneBeforeKill: number[] = [];
  let firstSources: { id: string; external_id: string; revision: number }[] = [];
  for (const [round, target] of KILL_AT.entries()) {
    const deadline = Date.now() + 120_000;
    while ((await handled()) < target && Date.now() < deadline) await Bun.sleep(20);
    await server.stop("SIGKILL");
    doneBeforeKill.push(await handled());
    if (round === 0) firstSources = (await q("SELECT id, external_id, revision FROM sources WHERE connector_id = ?", cid)) as any;
    server = await spawnServer(env);
  }
  let run: any;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const res = (await (await api(`${base}/${cid}/runs`)).json()) as any;
    run = res.runs.find((r: any) => r.id === runId);
    if (run && run.status !== "queued" && run.status !== "running") break;
    await Bun.sleep(200);
  }
  await server.stop();

  // Both kills came mid-run: some files were handled, not all.
  expect(doneBeforeKill[0]!).toBeGreaterThanOrEqual(KILL_AT[0]!);
  expect(doneBeforeKill[1]!).toBeGreaterThanOrEqual(KILL_AT[1]!);
  expect(doneBeforeKill[1]!).toBeLessThan(TOTAL);

  expect(run.status).toBe("succeeded");
  expect(Number((await q("SELECT count(*) AS n FROM connector_runs WHERE connector_id = ?", cid))[0]!.n)).toBe(1);
  // Every selected file once: one source per path, none twice, nothing else.
  const sources = await q("SELECT external_id, title, count(*) AS n FROM sources WHERE connector_id = ? GROUP BY external_id", cid);
  expect(sources).toHaveLength(TOTAL);
  expect(sources.every((r) => Number(r.n) === 1)).toBe(true);
  const paths = sources.map((r) => String(r.external_id).slice(cid.length + 1)).sort();
  expect(paths).toEqual(Object.keys(repositoryFiles()).filter((p) => p.endsWith(".md")).sort());
  expect(new Set(sources.map((r) => r.title)).size).toBe(TOTAL);
  // The run's counts add up to the files: each added once, none updated, failed or removed.
  expect(run.counts).toMatchObject({ added: TOTAL, updated: 0, removed: 0, failed: 0 });
  expect(run.counts.added + run.counts.updated + run.counts.unchanged).toBe(TOTAL);
  // Resumed, not restarted: a file's source written before the first kill is the same row, never rewritten.
  expect(firstSources.length).toBeGreaterThanOrEqual(KILL_AT[0]!);
  const now = new Map((await q("SELECT id, external_id, revision FROM sources WHERE connector_id = ?", cid)).map((r) => [String(r.external_id), r]));
  for (const s of firstSources) expect({ id: now.get(s.external_id)?.id, revision: Number(now.get(s.external_id)?.revision) }).toEqual({ id: s.id, revision: Number(s.revision) });
  const items = await q("SELECT count(*) AS n, count(DISTINCT source_id) AS distinct_sources FROM connector_items WHERE connector_id = ? AND done_run = ?", cid, runId);
  expect(items[0]).toMatchObject({ n: TOTAL, distinct_sources: TOTAL });
  expect((await db.client.execute("PRAGMA integrity_check")).rows[0]![0]).toBe("ok");
  db.close();
});
