// Concept pages are durable across kill -9: the concept rows are written in the same batch as the pages,
// the refresh is re-run from them, and nothing is doubled or left dirty.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openDatabase } from "../../../src/db/client";
import { lastLine, runCli, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";

const dataDir = tempDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("a killed server leaves every concept page whole: mentions once per source, links in, nothing dirty", async () => {
  const site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      await Bun.sleep(120);
      const n = new URL(req.url).pathname.slice(1);
      return new Response(
        `<html><head><title>Survey ${n}</title></head><body><article><p>Surveyor Ada Quill mapped the coast near Port Tamsin in year ${n}. ` +
          `The map of district ${n} was kept in the archive.</p></article></body></html>`,
        { headers: { "content-type": "text/html" } },
      );
    },
  });
  const env = { BRAINBOX_DATA_DIR: dataDir, BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`, BRAINBOX_JOB_LEASE_MS: "1500", BRAINBOX_JOB_CONCURRENCY: "4" };
  const key = lastLine((await runCli(["keys", "create", "--name", "crash"], env)).stdout);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  let server = await spawnServer(env);
  const brain = (await (await fetch(`${server.url}/api/v1/brains`, { method: "POST", headers, body: JSON.stringify({ name: "Survey" }) })).json()) as any;
  const total = 30;
  for (let i = 0; i < total; i++) {
    const res = await fetch(`${server.url}/api/v1/brains/${brain.brain.id}/sources`, { method: "POST", headers, body: JSON.stringify({ kind: "link", url: `http://127.0.0.1:${site.port}/${i}` }) });
    expect(res.status).toBe(201);
  }
  for (let round = 0; round < 2; round++) {
    await Bun.sleep(400);
    await server.stop("SIGKILL");
    server = await spawnServer(env);
  }
  const db = openDatabase({ dataDir });
  const count = async (sql: string) => Number((await db.client.execute(sql)).rows[0]!.n);
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline && (await count("SELECT count(*) AS n FROM sources WHERE status = 'ready'")) < total) await Bun.sleep(100);
  while (Date.now() < deadline && (await count("SELECT count(*) AS n FROM jobs WHERE status != 'done'")) > 0) await Bun.sleep(100);
  await server.stop();
  site.stop(true);

  expect(await count("SELECT count(*) AS n FROM sources WHERE status = 'ready'")).toBe(total);
  expect(await count("SELECT count(*) AS n FROM pages WHERE kind = 'concept' AND slug = 'ada-quill'")).toBe(1);
  expect(await count("SELECT count(*) AS n FROM pages WHERE kind = 'concept' AND slug = 'port-tamsin'")).toBe(1);
  // One set of mentions per source (none doubled by a re-run job), none left dirty.
  expect(await count("SELECT count(DISTINCT source_id) AS n FROM concept_mentions WHERE concept = 'ada-quill'")).toBe(total);
  expect(await count("SELECT count(*) AS n FROM concept_mentions WHERE concept = 'ada-quill'")).toBe(total);
  expect(await count("SELECT count(*) AS n FROM concept_dirty")).toBe(0);
  // Every source page links to her (the first ones inward, when her page was created).
  expect(await count("SELECT count(*) AS n FROM pages p WHERE p.kind = 'source' AND p.markdown LIKE '%[[ada-quill|Ada Quill]]%'")).toBe(total);
  expect(await count("SELECT count(*) AS n FROM page_links l JOIN pages p ON p.id = l.from_page_id WHERE l.to_slug = 'ada-quill' AND p.kind = 'source'")).toBe(total);
  // Her page and Port Tamsin's name each other as related concepts.
  expect(await count("SELECT count(*) AS n FROM page_links l JOIN pages p ON p.id = l.from_page_id WHERE l.to_slug = 'ada-quill' AND p.slug = 'port-tamsin'")).toBe(1);
  expect(await count("SELECT count(*) AS n FROM jobs WHERE attempts > 1")).toBeGreaterThan(0); // the kills interrupted work
  expect((await db.client.execute("PRAGMA integrity_check")).rows[0]![0]).toBe("ok");
  db.close();
});
