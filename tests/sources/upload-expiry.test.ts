// An upload URL that is never used: its file source fails once the URL expires (across a restart too),
// and a URL used in time is ingested once, not again when it would have expired.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/lib/log";
import { startServer } from "../../src/runtime";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { newBrain, waitForSource } from "../support/sources";

const TTL = { BRAINBOX_UPLOAD_URL_TTL_SECONDS: "1" };
let s: TestServer;
let brainId: string;

beforeAll(async () => {
  s = await startTestServer(TTL);
  brainId = await newBrain(s);
});
afterAll(() => s.close());

const ticketFor = async (api: TestServer["api"], brain: string, filename: string, size: number) =>
  expectJson(await api(`/api/brains/${brain}/sources/upload-url`, { method: "POST", json: { filename, contentType: "text/plain", size } }), 201);

describe("upload URLs that expire", () => {
  test("a URL never used: the source is pending until it expires, then failed as never arrived", async () => {
    const ticket = await ticketFor(s.api, brainId, "never.txt", 12);
    const before = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${ticket.sourceId}`), 200);
    expect(before.source.status).toBe("pending");
    const failed = await waitForSource(s, brainId, ticket.sourceId, ["failed", "ready"], 10_000);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/upload never arrived/i);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(ticket.expiresAt));
  }, 20_000);

  test("a URL used in time: ready once, and still ready with no second run after the expiry", async () => {
    const text = "Otters hold hands while they sleep so they do not drift apart.";
    const ticket = await ticketFor(s.api, brainId, "otters.txt", text.length);
    const put = await fetch(ticket.uploadUrl, { method: "PUT", body: text, headers: { "content-type": "text/plain" } });
    expect(put.status).toBe(200);
    expect((await waitForSource(s, brainId, ticket.sourceId)).status).toBe("ready");
    await Bun.sleep(Math.max(0, Date.parse(ticket.expiresAt) - Date.now()) + 700);
    const after = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${ticket.sourceId}`), 200);
    expect(after.source).toMatchObject({ status: "ready", error: null });
    const ran = await s.ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM jobs WHERE subject_id = ? AND kind = 'ingest-source'", args: [ticket.sourceId] });
    expect(Number(ran.rows[0]!.n)).toBeLessThanOrEqual(1);
  }, 20_000);

  test("the expiry holds across a restart: the source fails after the server comes back", async () => {
    const dataDir = tempDir();
    const config = loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dataDir, BRAINBOX_LOG_LEVEL: "error", ...TTL });
    const first = await startServer(config, createLogger("error"));
    const key = first.firstKey!.key;
    const api = (url: string) => (path: string, init: RequestInit & { json?: unknown } = {}) =>
      fetch(url + path, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: init.json === undefined ? init.body : JSON.stringify(init.json) });
    const brain = await newBrain({ api: api(first.url) as TestServer["api"] });
    const ticket = await ticketFor(api(first.url) as TestServer["api"], brain, "lost.txt", 5);
    await first.stop();
    const again = await startServer(config, createLogger("error"));
    try {
      const failed = await waitForSource({ api: api(again.url) as TestServer["api"] }, brain, ticket.sourceId, ["failed", "ready"], 10_000);
      expect(failed.status).toBe("failed");
      expect(failed.error).toMatch(/upload never arrived/i);
    } finally {
      await again.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 20_000);
});
