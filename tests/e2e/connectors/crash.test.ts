// Kill -9 the server in the middle of a connector run, twice: the run resumes where it was (pages already
// handled are not fetched again), ends once, and every page is one source with one page.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openDatabase } from "../../../src/db/client";
import { cliKeyHeaders, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";

const dataDir = tempDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("a connector run survives kill -9: resumed, not restarted; nothing lost or doubled", async () => {
  const total = 30;
  const fetched = new Map<string, number>();
  const site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      fetched.set(path, (fetched.get(path) ?? 0) + 1);
      if (path === "/") {
        const links = Array.from({ length: total }, (_, i) => `<a href="/p/${i}">page ${i}</a>`).join(" ");
        return new Response(`<html><head><title>Index</title></head><body><main><p>All pages of the crash site.</p>${links}</main></body></html>`, { headers: { "content-type": "text/html" } });
      }
      await Bun.sleep(250);
      const n = path.slice(3);
      return new Response(`<html><head><title>Page ${n}</title></head><body><article><p>Fact ${n} about resumable crawls and durable runs.</p></article></body></html>`, {
        headers: { "content-type": "text/html" },
      });
    },
  });
  const env = { BRAINBOX_DATA_DIR: dataDir, BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`, BRAINBOX_JOB_LEASE_MS: "1500" };
  const headers = await cliKeyHeaders(env, "crash");
  let server = await spawnServer(env);
  const api = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { ...init, headers });
  const brain = (await (await api("/api/v1/brains", { method: "POST", body: JSON.stringify({ name: "Crash" }) })).json()) as any;
  const base = `/api/v1/brains/${brain.brain.id}/connectors`;
  const made = (await (await api(base, { method: "POST", body: JSON.stringify({ kind: "website", name: "Crash site", config: { startUrls: [`http://127.0.0.1:${site.port}/`], maxDepth: 1 } }) })).json()) as any;
  const cid = made.connector.id;
  const started = await api(`${base}/${cid}/sync`, { method: "POST" });
  expect(started.status).toBe(202);
  const runId = ((await started.json()) as any).run.id;

  const db = openDatabase({ dataDir });
  const handled = async () => Number((await db.client.execute({ sql: "SELECT count(*) AS n FROM connector_items WHERE done_run = ?", args: [runId] })).rows[0]!.n);
  const doneBeforeKill: string[][] = [];
  for (let round = 0; round < 2; round++) {
    const target = (round + 1) * 8;
    const deadline = Date.now() + 60_000;
    while ((await handled()) < target && Date.now() < deadline) await Bun.sleep(50);
    await server.stop("SIGKILL");
    const rows = await db.client.execute({ sql: "SELECT item_key FROM connector_items WHERE done_run = ?", args: [runId] });
    doneBeforeKill.push(rows.rows.map((r) => String(r.item_key)));
    server = await spawnServer(env);
  }
  let run: any;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const res = (await (await api(`${base}/${cid}/runs`)).json()) as any;
    run = res.runs.find((r: any) => r.id === runId);
    if (run && run.status !== "queued" && run.status !== "running") break;
    await Bun.sleep(200);
  }
  await server.stop();
  site.stop(true);

  expect(run.status).toBe("succeeded");
  const runsOf = await db.client.execute({ sql: "SELECT count(*) AS n FROM connector_runs WHERE connector_id = ?", args: [cid] });
  expect(Number(runsOf.rows[0]!.n)).toBe(1);
  // Every page once: one source each, no duplicates.
  const sources = await db.client.execute({ sql: "SELECT url, count(*) AS n FROM sources WHERE connector_id = ? GROUP BY url", args: [cid] });
  expect(sources.rows).toHaveLength(total + 1);
  expect(sources.rows.every((r) => Number(r.n) === 1)).toBe(true);
  expect(run.counts.added + run.counts.unchanged).toBe(total + 1);
  expect(run.counts.failed).toBe(0);
  // Resumed, not restarted: the index (handled before the first kill) was fetched once, and no page more than
  // once beyond the few in flight at each kill.
  expect(doneBeforeKill[0]!.length).toBeGreaterThanOrEqual(8);
  expect(doneBeforeKill[1]!.length).toBeLessThan(total + 1); // the second kill too came mid-run
  expect(fetched.get("/")).toBe(1);
  const refetched = [...fetched.entries()].filter(([, n]) => n > 1).length;
  expect(refetched).toBeLessThanOrEqual(2 * 4);
  expect((await db.client.execute("PRAGMA integrity_check")).rows[0]![0]).toBe("ok");
  db.close();
});
