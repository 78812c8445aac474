// Two server processes on one database file: every job runs once, whichever replica claims it.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openDatabase } from "../../../src/db/client";
import { cliKeyHeaders, lastLine, runCli, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";

const dataDir = tempDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("two replicas never process a job twice", async () => {
  const fetched = new Map<string, number>();
  const site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = new URL(req.url).pathname;
      fetched.set(path, (fetched.get(path) ?? 0) + 1);
      await Bun.sleep(20);
      return new Response(`<html><head><title>Doc ${path}</title></head><body><article><p>Shared database replica document ${path} with enough words to be read.</p></article></body></html>`, {
        headers: { "content-type": "text/html" },
      });
    },
  });
  const env = { BRAINBOX_DATA_DIR: dataDir, BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`, BRAINBOX_JOB_CONCURRENCY: "3" };
  const headers = await cliKeyHeaders(env, "replicas");
  const [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  const brain = (await (await fetch(`${a.url}/api/v1/brains`, { method: "POST", headers, body: JSON.stringify({ name: "Replicated" }) })).json()) as any;
  const total = 60;
  await Promise.all(
    Array.from({ length: total }, (_, i) =>
      fetch(`${(i % 2 ? a : b).url}/api/v1/brains/${brain.brain.id}/sources`, {
        method: "POST",
        headers,
        body: JSON.stringify({ kind: "link", url: `http://127.0.0.1:${site.port}/doc-${i}` }),
      }),
    ),
  );
  const db = openDatabase({ dataDir });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const done = Number((await db.client.execute("SELECT count(*) AS n FROM jobs WHERE kind = 'ingest-source' AND status = 'done'")).rows[0]!.n);
    if (done === total) break;
    await Bun.sleep(50);
  }
  // Each replica's own counter: both did work, and together exactly one run per job.
  const completed = async (url: string) =>
    Number(/jobs_completed_total\{kind="ingest-source"\} (\d+)/.exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? 0);
  const [byA, byB] = [await completed(a.url), await completed(b.url)];
  await Promise.all([a.stop(), b.stop()]);
  site.stop(true);
  expect(byA).toBeGreaterThan(0);
  expect(byB).toBeGreaterThan(0);
  expect(byA + byB).toBe(total);
  expect(Number((await db.client.execute("SELECT count(*) AS n FROM sources WHERE status = 'ready'")).rows[0]!.n)).toBe(total);
  expect([...fetched.values()].every((n) => n === 1)).toBe(true);
  expect(fetched.size).toBe(total);
  const attempts = await db.client.execute("SELECT max(attempts) AS m FROM jobs");
  expect(Number(attempts.rows[0]!.m)).toBe(1);
  const pages = await db.client.execute("SELECT count(*) AS n, count(DISTINCT source_id) AS s FROM pages WHERE kind != 'concept'");
  expect(Number(pages.rows[0]!.n)).toBe(total);
  expect(Number(pages.rows[0]!.s)).toBe(total);
  db.close();
});

test("two replicas never over-spend a quota: 50 asks split across both against 10 → exactly 10", async () => {
  const dir = tempDir();
  const env = { BRAINBOX_DATA_DIR: dir, BRAINBOX_PRO_QUOTA: "10" };
  const adminKey = lastLine((await runCli(["keys", "create", "--name", "admin"], env)).stdout);
  const proKey = lastLine((await runCli(["accounts", "create", "--name", "Pro", "--plan", "pro"], env)).stdout);
  const [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  try {
    const admin = { authorization: `Bearer ${adminKey}`, "content-type": "application/json" };
    const brain = (await (await fetch(`${a.url}/api/v1/brains`, { method: "POST", headers: admin, body: JSON.stringify({ name: "Open", visibility: "public" }) })).json()) as any;
    const pro = { authorization: `Bearer ${proKey}`, "content-type": "application/json" };
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).url}/api/v1/brains/${brain.brain.id}/ask`, { method: "POST", headers: pro, body: JSON.stringify({ question: "anything?" }) }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    // Both replicas served some of the successful asks' traffic.
    expect(new Set(results.map((r, i) => (r.status === 200 || r.status === 429 ? i % 2 : -1))).size).toBe(2);
    const db = openDatabase({ dataDir: dir });
    const used = await db.client.execute("SELECT used FROM usage_counters WHERE counter = 'quota'");
    db.close();
    expect(used.rows.map((r) => Number(r.used))).toEqual([10]);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
});
