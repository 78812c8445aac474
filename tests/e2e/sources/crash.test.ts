// Kill -9 the server in the middle of ingestion, restart it, and every source still ends ready exactly once.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openDatabase } from "../../../src/db/client";
import { lastLine, runCli, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";

const dataDir = tempDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("a killed server loses and doubles nothing", async () => {
  // A slow site keeps jobs in flight when the process dies.
  const site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      await Bun.sleep(600);
      const n = new URL(req.url).pathname.slice(1);
      return new Response(`<html><head><title>Page ${n}</title></head><body><article><p>Fact number ${n} about crash safety and durable queues.</p></article></body></html>`, {
        headers: { "content-type": "text/html" },
      });
    },
  });
  const env = {
    BRAINBOX_DATA_DIR: dataDir,
    BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`,
    BRAINBOX_JOB_LEASE_MS: "1500",
    BRAINBOX_JOB_CONCURRENCY: "4",
  };
  const key = lastLine((await runCli(["keys", "create", "--name", "crash"], env)).stdout);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  let server = await spawnServer(env);
  const brain = (await (await fetch(`${server.url}/api/v1/brains`, { method: "POST", headers, body: JSON.stringify({ name: "Crash" }) })).json()) as any;
  const total = 40;
  for (let i = 0; i < total; i++) {
    const res = await fetch(`${server.url}/api/v1/brains/${brain.brain.id}/sources`, {
      method: "POST",
      headers,
      body: JSON.stringify({ kind: "link", url: `http://127.0.0.1:${site.port}/${i}` }),
    });
    expect(res.status).toBe(201);
  }
  for (let round = 0; round < 2; round++) {
    await Bun.sleep(300);
    await server.stop("SIGKILL");
    server = await spawnServer(env);
  }
  const db = openDatabase({ dataDir });
  const deadline = Date.now() + 30_000;
  let ready = 0;
  while (Date.now() < deadline) {
    ready = Number((await db.client.execute("SELECT count(*) AS n FROM sources WHERE status = 'ready'")).rows[0]!.n);
    if (ready === total) break;
    await Bun.sleep(100);
  }
  await server.stop();
  site.stop(true);
  expect(ready).toBe(total);
  const perSource = await db.client.execute("SELECT source_id, count(*) AS n FROM pages WHERE source_id IS NOT NULL GROUP BY source_id");
  expect(perSource.rows).toHaveLength(total);
  expect(perSource.rows.every((r) => Number(r.n) === 1)).toBe(true);
  const jobs = await db.client.execute("SELECT status, count(*) AS n FROM jobs WHERE kind = 'ingest-source' GROUP BY status");
  expect(jobs.rows.map((r) => [r.status, Number(r.n)])).toEqual([["done", total]]);
  // Besides them only the brain's wiki refresh (queued with writes that leave lone concepts to merge).
  const others = await db.client.execute("SELECT DISTINCT kind FROM jobs WHERE kind != 'ingest-source'");
  expect(others.rows.map((r) => r.kind)).toEqual(others.rows.length ? ["wiki-refresh"] : []);
  // The kills really interrupted work: some jobs were claimed again after their lease expired.
  const retried = await db.client.execute("SELECT count(*) AS n FROM jobs WHERE attempts > 1");
  expect(Number(retried.rows[0]!.n)).toBeGreaterThan(0);
  expect((await db.client.execute("PRAGMA integrity_check")).rows[0]![0]).toBe("ok");
  db.close();
});
