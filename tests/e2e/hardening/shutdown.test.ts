// Graceful shutdown: SIGTERM lets a running job finish (or hands it back), and nothing is half-written.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openDatabase } from "../../../src/db/client";
import { cliKeyHeaders, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";

const dataDir = tempDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("SIGTERM finishes the in-flight job before exiting", async () => {
  let started = 0;
  const site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch() {
      started++;
      await Bun.sleep(800);
      return new Response("<html><head><title>Slow</title></head><body><article><p>A slow page that takes a while to arrive.</p></article></body></html>", {
        headers: { "content-type": "text/html" },
      });
    },
  });
  const env = { BRAINBOX_DATA_DIR: dataDir, BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}` };
  const headers = await cliKeyHeaders(env, "shutdown");
  const server = await spawnServer(env);
  const brain = (await (await fetch(`${server.url}/api/v1/brains`, { method: "POST", headers, body: JSON.stringify({ name: "Slow" }) })).json()) as any;
  await fetch(`${server.url}/api/v1/brains/${brain.brain.id}/sources`, { method: "POST", headers, body: JSON.stringify({ kind: "link", url: `http://127.0.0.1:${site.port}/slow` }) });
  while (started === 0) await Bun.sleep(10);
  await server.stop("SIGTERM");
  site.stop(true);
  expect(server.stderr()).toContain('"msg":"shutting down"');
  const db = openDatabase({ dataDir });
  const source = await db.client.execute("SELECT status FROM sources");
  const job = await db.client.execute("SELECT status, attempts FROM jobs");
  db.close();
  expect(source.rows[0]!.status).toBe("ready");
  expect(job.rows[0]).toMatchObject({ status: "done", attempts: 1 });
});
