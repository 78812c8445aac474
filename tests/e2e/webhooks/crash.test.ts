// Kill -9 the server while webhook deliveries are in flight: after a restart every event arrives, at least
// once, and a delivery sent again carries the same webhook-id (receivers dedupe by it); nothing is lost.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { Webhook } from "standardwebhooks";
import { lastLine, runCli, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";
import { waitFor } from "../../support/wait";

const dataDir = tempDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("a killed server delivers every event after its restart, with stable ids", async () => {
  let answering = false;
  const received: { id: string; body: string; headers: Record<string, string> }[] = [];
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => (headers[k] = v));
      received.push({ id: headers["webhook-id"]!, body: await req.text(), headers });
      if (!answering) return new Promise<Response>(() => {}); // in flight when the server dies
      return new Response(null, { status: 204 });
    },
  });
  const env = {
    BRAINBOX_DATA_DIR: dataDir,
    BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${receiver.port}`,
    BRAINBOX_JOB_LEASE_MS: "1500",
    BRAINBOX_WEBHOOK_TIMEOUT_MS: "600000",
    BRAINBOX_WEBHOOK_RETRY_BASE_MS: "50",
  };
  const key = lastLine((await runCli(["keys", "create", "--name", "crash"], env)).stdout);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  let server = await spawnServer(env);
  const post = async (path: string, body: unknown) => (await (await fetch(`${server.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) })).json()) as any;
  const { brain } = await post("/api/v1/brains", { name: "Crash hooks" });
  const { webhook, secret } = await post("/api/v1/webhooks", { url: `http://127.0.0.1:${receiver.port}/hook`, events: ["source.ready"] });
  const total = 6;
  const sourceIds: string[] = [];
  for (let i = 0; i < total; i++)
    sourceIds.push((await post(`/api/v1/brains/${brain.id}/sources`, { title: `Fact ${i}`, content: `Fact number ${i} about durable webhook deliveries and queues.` })).source.id);

  await waitFor(async () => received.length >= 1).catch((e) => {
    throw new Error(`no delivery began: ${e.message}; ${server.stderr().slice(-2000)}`);
  });
  const inFlight = new Set(received.map((r) => r.id));
  await server.stop("SIGKILL");
  answering = true;
  server = await spawnServer(env);
  try {
    const ready = () => new Set(received.map((r) => JSON.parse(r.body).data.sourceId));
    await waitFor(async () => sourceIds.every((id) => ready().has(id))).catch((e) => {
      throw new Error(`not every event arrived (${received.length} requests): ${e.message}; ${server.stderr().slice(-3000)}`);
    });
    await waitFor(async () => {
      const res = await fetch(`${server.url}/api/v1/webhooks/${webhook.id}/deliveries`, { headers });
      const { deliveries } = (await res.json()) as any;
      return deliveries.length === total && deliveries.every((d: any) => d.status === "delivered");
    });
    const ids = new Set(received.map((r) => r.id));
    expect(ids.size).toBe(total); // one id per event, however often it was sent
    for (const id of inFlight) expect(received.filter((r) => r.id === id).length).toBeGreaterThanOrEqual(2);
    for (const r of received) expect((new Webhook(secret).verify(r.body, r.headers) as any).type).toBe("source.ready");
  } finally {
    await server.stop();
    receiver.stop(true);
  }
});
