// Two server processes on one database, both running the scheduler and taking sync requests: each connector
// runs once per turn, whichever replica claims it, and no page is fetched by two runs.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openDatabase } from "../../../src/db/client";
import { cliKeyHeaders, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";

const dataDir = tempDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("replicas never run one connector twice at once", async () => {
  const fetched = new Map<string, number>();
  const site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      fetched.set(path, (fetched.get(path) ?? 0) + 1);
      await Bun.sleep(100);
      return new Response(`<html><head><title>Page ${path}</title></head><body><article><p>Replicated connector page ${path}.</p></article></body></html>`, { headers: { "content-type": "text/html" } });
    },
  });
  const env = { BRAINBOX_DATA_DIR: dataDir, BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`, BRAINBOX_CONNECTOR_SCHEDULER_MS: "100" };
  const headers = await cliKeyHeaders(env, "replicas");
  const [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  const call = (url: string, path: string, body?: unknown) => fetch(`${url}${path}`, { method: body === undefined ? "GET" : "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const brain = ((await (await call(a.url, "/api/v1/brains", { name: "Replicated" })).json()) as any).brain.id;
  const base = `/api/v1/brains/${brain}/connectors`;
  // Scheduled connectors: both replicas' schedulers see each one due at once.
  const scheduled: string[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await call(i % 2 ? a.url : b.url, base, { kind: "website", name: `S${i}`, schedule: "every 1h", config: { startUrls: [`http://127.0.0.1:${site.port}/s${i}/1`, `http://127.0.0.1:${site.port}/s${i}/2`], maxDepth: 0 } });
    scheduled.push(((await res.json()) as any).connector.id);
  }
  // A manual one, synced through both replicas at once.
  const manual = ((await (await call(a.url, base, { kind: "website", name: "M", config: { startUrls: [`http://127.0.0.1:${site.port}/m/1`], maxDepth: 0 } })).json()) as any).connector.id;
  const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => call(i % 2 ? a.url : b.url, `${base}/${manual}/sync`, {})));
  expect(answers.map((r) => r.status).sort()).toEqual([202, 409, 409, 409, 409, 409]);

  const db = openDatabase({ dataDir });
  const finishedRuns = async () => Number((await db.client.execute("SELECT count(*) AS n FROM connector_runs WHERE status = 'succeeded'")).rows[0]!.n);
  const deadline = Date.now() + 60_000;
  while ((await finishedRuns()) < 7 && Date.now() < deadline) await Bun.sleep(100);
  await Bun.sleep(1000); // a second run wrongly started would show by now
  const completed = async (url: string) => Number(/jobs_completed_total\{kind="connector-sync"\} (\d+)/.exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? 0);
  const [byA, byB] = [await completed(a.url), await completed(b.url)];
  await Promise.all([a.stop(), b.stop()]);
  site.stop(true);

  const perConnector = await db.client.execute("SELECT connector_id, count(*) AS n, min(status) AS s FROM connector_runs GROUP BY connector_id");
  expect(perConnector.rows).toHaveLength(7);
  expect(perConnector.rows.every((r) => Number(r.n) === 1 && r.s === "succeeded")).toBe(true);
  expect(byA + byB).toBe(7);
  expect(fetched.size).toBe(13);
  expect([...fetched.values()].every((n) => n === 1)).toBe(true);
  const sources = await db.client.execute("SELECT count(*) AS n FROM sources");
  expect(Number(sources.rows[0]!.n)).toBe(13);
  expect(scheduled).toHaveLength(6);
  db.close();
});
