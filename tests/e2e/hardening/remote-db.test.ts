// Brainbox on a remote libSQL server: the real @libsql/client HTTP driver against a loopback stand-in that
// speaks Hrana over HTTP (tests/support/hrana-standin.ts) on a local libSQL file. Migrations (interactive
// transactions), ingestion (FTS, pages), ask/context, a unique violation mapped to 409, the CLI on the
// same URL while the server runs, and the data is in the stand-in's file afterwards.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import Database from "libsql";
import { migrations } from "../../../src/db/migrations";
import { isUniqueViolation } from "../../../src/lib/db-errors";
import { lastLine, runCli } from "../../support/cli";
import { startHranaStandin, type HranaStandin } from "../../support/hrana-standin";
import { expectJson, startTestServer, tempDir, type TestServer } from "../../support/server";
import { addText, newBrain, waitForSource } from "../../support/sources";
import { buildTinyModel } from "../../support/tiny-model";

const AUTH = "remote-db-token";
const dir = tempDir("brainbox-remote-");
const file = join(dir, "remote.db");
let standin: HranaStandin;
let s: TestServer;
let stopped = false;
const remoteEnv = () => ({ BRAINBOX_DATABASE_URL: standin.url, BRAINBOX_DATABASE_AUTH_TOKEN: AUTH });

const ENERGY: Record<string, string> = {
  "Solar Panels":
    "Solar panels convert sunlight into electricity using photovoltaic cells. A typical residential solar panel produces about 350 watts of power. Most solar panels keep working for 25 to 30 years.",
  "Wind Turbines":
    "Wind turbines turn the kinetic energy of wind into electricity. The blades of a large turbine can be 80 metres long. Offshore wind farms produce more energy because the wind at sea is stronger.",
};
let brainId = "";
/** A page vector as read back through the remote driver (blob over Hrana's base64), to compare with the file. */
let remoteVector: { pageId: number; hex: string } | null = null;

beforeAll(async () => {
  standin = startHranaStandin({ file, authToken: AUTH });
  // The tiny embedder makes ingestion write vectors (blobs) and retrieval read them, over the wire too.
  const modelsDir = join(dir, "models");
  const model = await buildTinyModel(modelsDir);
  s = await startTestServer({ ...remoteEnv(), BRAINBOX_MODELS_DIR: modelsDir, BRAINBOX_EMBED_MODEL: model });
});

async function stopAll() {
  if (stopped) return;
  stopped = true;
  await s.close();
  await standin.stop();
}
afterAll(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

describe("Brainbox on a remote libSQL server (Hrana over HTTP)", () => {
  test("start-up migrated through the stand-in: no local database file, health says remote", async () => {
    expect(standin.requests).toBeGreaterThan(0);
    // migrate() and bootstrapOwner() hold write transactions open across HTTP requests on one stream.
    expect(standin.stats.heldTransactions).toBeGreaterThan(0);
    expect(existsSync(join(s.dataDir, "brainbox.db"))).toBe(false);
    const health = await expectJson(await s.api("/api/health", { key: null }), 200);
    expect(health.status).toBe("ok");
    expect(health.database).toEqual({ ok: true, kind: "remote" });
    expect(health.embedder.retrieval).toBe("hybrid");
  });

  test("the stand-in refuses a wrong token (the client sends the configured one)", async () => {
    const client = createClient({ url: standin.url, authToken: "wrong" });
    await expect(client.execute("SELECT 1")).rejects.toThrow(/401/);
    client.close();
  });

  test("create a brain, add text sources, wait until ready: pages and FTS written remotely", async () => {
    brainId = await newBrain(s, "Home Energy");
    const ids: string[] = [];
    for (const [title, content] of Object.entries(ENERGY)) ids.push((await addText(s, brainId, title, content)).source.id);
    for (const id of ids) expect((await waitForSource(s, brainId, id)).status).toBe("ready");
    const pages = await s.ctx.database.client.execute({ sql: "SELECT slug FROM pages WHERE brain_id = ? ORDER BY slug", args: [brainId] });
    expect(pages.rows.map((r) => r.slug)).toEqual(["solar-panels", "wind-turbines"]);
    const vectors = await s.ctx.database.client.execute({ sql: "SELECT page_id, embedding FROM page_vectors WHERE brain_id = ? ORDER BY page_id", args: [brainId] });
    expect(vectors.rows).toHaveLength(2);
    const blob = vectors.rows[0]!.embedding as ArrayBuffer;
    expect(blob).toBeInstanceOf(ArrayBuffer);
    expect(blob.byteLength).toBeGreaterThan(0);
    remoteVector = { pageId: Number(vectors.rows[0]!.page_id), hex: Buffer.from(blob).toString("hex") };
  });

  test("deleting a source cascades to its page and vector (foreign keys on the remote connection)", async () => {
    const { source } = await addText(s, brainId, "Heat Pumps", "A heat pump moves heat from the outside air into a house.");
    expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
    const count = async (table: string) =>
      Number((await s.ctx.database.client.execute({ sql: `SELECT count(*) AS n FROM ${table} WHERE brain_id = ?`, args: [brainId] })).rows[0]!.n);
    expect([await count("pages"), await count("page_vectors")]).toEqual([3, 3]);
    expect((await s.api(`/api/v1/brains/${brainId}/sources/${source.id}`, { method: "DELETE" })).status).toBe(204);
    expect([await count("pages"), await count("page_vectors")]).toEqual([2, 2]);
  });

  test("ask: a non-thin answer with a citation", async () => {
    const body = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "How much power does a residential solar panel produce?" } }), 200);
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("350 watts");
    expect(body.citations).toContainEqual({ slug: "solar-panels", title: "Solar Panels", url: `${s.url}/api/v1/brains/${brainId}/pages/solar-panels` });
    const saved = await s.ctx.database.client.execute({ sql: "SELECT thin FROM asks WHERE id = ?", args: [body.id] });
    expect(saved.rows[0]).toMatchObject({ thin: 0 });
  });

  test("context: the retrieved page's markdown", async () => {
    const body = await expectJson(await s.api(`/api/brains/${brainId}/context`, { method: "POST", json: { query: "how long are wind turbine blades" } }), 200);
    expect(body.pages[0]).toEqual({ slug: "wind-turbines", title: "Wind Turbines", score: 1 });
    expect(body.contextText).toContain("The blades of a large turbine can be 80 metres long.");
    expect(body.thin).toBe(false);
  });

  test("a duplicate brain name is a 409, also when concurrent creates race to the unique index", async () => {
    const dup = await s.api("/api/v1/brains", { method: "POST", json: { name: "Home Energy" } });
    expect(dup.status).toBe(409);
    const constraintErrorsBefore = standin.stats.errors.SQLITE_CONSTRAINT ?? 0;
    const statuses = await Promise.all(Array.from({ length: 6 }, () => s.api("/api/v1/brains", { method: "POST", json: { name: "Raced" } }).then((r) => r.status)));
    expect(statuses.filter((x) => x === 201)).toHaveLength(1);
    expect(statuses.filter((x) => x === 409)).toHaveLength(5);
    // Whether the race reached the index depends on interleaving; the mapping itself is checked directly:
    // a UNIQUE failure sent over Hrana (code SQLITE_CONSTRAINT, message "SQLite error: UNIQUE constraint
    // failed: ...") is still recognised by isUniqueViolation.
    const client = createClient({ url: standin.url, authToken: AUTH });
    const owner = await client.execute("SELECT account_id, slug FROM brains WHERE id = ?", [brainId]);
    const error = await client
      .execute({ sql: "INSERT INTO brains (id, account_id, name, slug) VALUES ('brn_dup', ?, 'Other', ?)", args: [owner.rows[0]!.account_id!, owner.rows[0]!.slug!] })
      .then(() => null, (e: unknown) => e);
    client.close();
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain("UNIQUE constraint failed: brains.account_id, brains.slug");
    expect(isUniqueViolation(error)).toBe(true);
    expect(standin.stats.errors.SQLITE_CONSTRAINT ?? 0).toBeGreaterThan(constraintErrorsBefore);
  });

  test("the CLI on the same URL while the server runs: migrations are idempotent, the new key works", async () => {
    const cliDir = tempDir("brainbox-remote-cli-");
    try {
      const before = standin.requests;
      const res = await runCli(["keys", "create", "--name", "remote-cli"], { ...remoteEnv(), BRAINBOX_DATA_DIR: cliDir, BRAINBOX_LOG_LEVEL: "error" });
      expect(res.stderr).toBe("");
      expect(res.code).toBe(0);
      const key = lastLine(res.stdout);
      expect(key).toMatch(/^bb_live_\w{43}$/);
      expect(standin.requests).toBeGreaterThan(before);
      expect(existsSync(join(cliDir, "brainbox.db"))).toBe(false);
      // The server reads the key the CLI wrote through the remote database.
      const list = await expectJson(await s.api("/api/v1/brains", { key }), 200);
      expect(JSON.stringify(list)).toContain(brainId);
    } finally {
      rmSync(cliDir, { recursive: true, force: true });
    }
  });

  test("after stopping: no stream left open, and the data is in the stand-in's file", async () => {
    await s.close();
    expect(standin.openStreams()).toBe(0);
    expect(standin.stats.httpRequests).toBe(standin.requests);
    expect(standin.stats.statements).toBeGreaterThan(0);
    stopped = true;
    await standin.stop();

    const db = new Database(file);
    try {
      const one = (sql: string, ...args: unknown[]) => db.prepare(sql).get(args) as Record<string, unknown>;
      expect(one("SELECT count(*) AS n FROM __drizzle_migrations").n).toBe(migrations.length);
      expect(one("SELECT name FROM brains WHERE id = ?", brainId).name).toBe("Home Energy");
      expect(one("SELECT count(*) AS n FROM brains WHERE name = 'Raced'").n).toBe(1);
      expect(one("SELECT count(*) AS n FROM sources WHERE brain_id = ? AND status = 'ready'", brainId).n).toBe(2);
      expect(one("SELECT count(*) AS n FROM pages WHERE brain_id = ?", brainId).n).toBe(2);
      expect(one("SELECT count(*) AS n FROM api_keys").n).toBe(2);
      expect(one("SELECT count(*) AS n FROM accounts WHERE is_admin = 1").n).toBe(1);
      expect(one("SELECT count(*) AS n FROM page_vectors WHERE brain_id = ?", brainId).n).toBe(2);
      const vector = one("SELECT embedding FROM page_vectors WHERE page_id = ?", remoteVector!.pageId).embedding as Uint8Array;
      expect(Buffer.from(vector).toString("hex")).toBe(remoteVector!.hex);
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all([]) as Array<{ name: string }>).map((r) => r.name);
      const fts = tables.find((t) => /fts/i.test(t) && !/_(data|idx|content|docsize|config)$/.test(t));
      expect(fts).toBeDefined();
      expect(one(`SELECT count(*) AS n FROM ${fts} WHERE ${fts} MATCH 'photovoltaic'`).n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});

describe("the stand-in speaks Hrana over HTTP like sqld", () => {
  let wire: HranaStandin;
  beforeAll(() => {
    wire = startHranaStandin({ file: join(dir, "wire.db"), streamIdleMs: 300, busyTimeoutMs: 3000 });
  });
  afterAll(() => wire.stop());
  const post = async (path: string, body: unknown) => {
    const res = await fetch(wire.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, text, json: res.headers.get("content-type") === "application/json" ? JSON.parse(text) : undefined };
  };
  const stmt = (sql: string, args: unknown[] = []) => ({ sql, args, want_rows: true });

  test("version probes; v3 pipeline: values, batch conditions, interactive transaction across requests, close", async () => {
    expect((await fetch(`${wire.url}/v2`)).status).toBe(200);
    expect((await fetch(`${wire.url}/v3`)).status).toBe(200);
    expect((await fetch(`${wire.url}/v3-protobuf`)).status).toBe(404);
    const first = await post("/v3/pipeline", {
      requests: [
        { type: "execute", stmt: stmt("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, v REAL, b BLOB)") },
        { type: "get_autocommit" },
      ],
    });
    expect(first.status).toBe(200);
    expect(first.json.results[0]).toMatchObject({ type: "ok", response: { type: "execute", result: { cols: [], rows: [], affected_row_count: 0 } } });
    expect(first.json.results[1]).toEqual({ type: "ok", response: { type: "get_autocommit", is_autocommit: true } });
    const baton = first.json.baton as string;
    expect(baton).toBeString();

    const args = [{ type: "integer", value: "9007199254740993" }, { type: "float", value: 1.5 }, { type: "text", value: "ä" }, { type: "blob", base64: "AP8=" }];
    const notAuto = { type: "not", cond: { type: "is_autocommit" } };
    const batch = await post("/v3/pipeline", {
      baton,
      requests: [
        {
          type: "batch",
          batch: {
            steps: [
              { stmt: stmt("BEGIN") },
              { stmt: stmt("INSERT INTO t (id, v, name, b) VALUES (?, ?, ?, ?)", args), condition: { type: "and", conds: [{ type: "ok", step: 0 }, notAuto] } },
              { stmt: stmt("INSERT INTO t (name) VALUES ('ä')"), condition: { type: "ok", step: 1 } },
              { stmt: stmt("SELECT 'skipped'"), condition: { type: "ok", step: 2 } },
              { stmt: stmt("SELECT id, v, name, b, NULL AS n FROM t"), condition: { type: "or", conds: [{ type: "error", step: 2 }, { type: "ok", step: 2 }] } },
            ],
          },
        },
        { type: "get_autocommit" },
      ],
    });
    expect(batch.status).toBe(200);
    const result = batch.json.results[0].response.result;
    expect(result.step_errors.map((e: unknown) => (e ? (e as { code: string }).code : null))).toEqual([null, null, "SQLITE_CONSTRAINT", null, null]);
    expect(result.step_errors[2].message).toBe("SQLite error: UNIQUE constraint failed: t.name");
    expect(result.step_results[1]).toMatchObject({ affected_row_count: 1, last_insert_rowid: "9007199254740993" });
    expect(result.step_results[3]).toBeNull();
    expect(result.step_results[4].cols).toEqual([
      { name: "id", decltype: "INTEGER" },
      { name: "v", decltype: "REAL" },
      { name: "name", decltype: "TEXT" },
      { name: "b", decltype: "BLOB" },
      { name: "n", decltype: null },
    ]);
    expect(result.step_results[4].rows).toEqual([[...args, { type: "null" }]]);
    // The transaction is still open when the HTTP request ends: the next request on the baton continues it.
    expect(batch.json.results[1].response.is_autocommit).toBe(false);
    const rolledBack = await post("/v3/pipeline", {
      baton: batch.json.baton,
      requests: [{ type: "execute", stmt: stmt("ROLLBACK") }, { type: "execute", stmt: stmt("SELECT count(*) FROM t") }, { type: "close" }],
    });
    expect(rolledBack.json.results[1].response.result.rows).toEqual([[{ type: "integer", value: "0" }]]);
    expect(rolledBack.json.baton).toBeNull();
    expect(wire.openStreams()).toBe(0);
  });

  test("batons: stale, forged and closed ones are refused; an idle stream expires and its transaction rolls back", async () => {
    const open = await post("/v2/pipeline", { requests: [{ type: "execute", stmt: stmt("BEGIN IMMEDIATE") }, { type: "execute", stmt: stmt("INSERT INTO t (name) VALUES ('held')") }] });
    const baton = open.json.baton as string;
    const next = await post("/v2/pipeline", { baton, requests: [{ type: "execute", stmt: stmt("SELECT 1") }] });
    expect(next.status).toBe(200);
    expect((await post("/v2/pipeline", { baton, requests: [] })).status).toBe(400); // already used
    expect((await post("/v2/pipeline", { baton: baton.replace(/.$/, (c) => (c === "A" ? "B" : "A")), requests: [] })).status).toBe(400);
    await Bun.sleep(700);
    const expired = await post("/v2/pipeline", { baton: next.json.baton, requests: [{ type: "execute", stmt: stmt("COMMIT") }] });
    expect(expired.status).toBe(500);
    expect(expired.json).toEqual({ message: "The stream has expired due to inactivity", code: "STREAM_EXPIRED" });
    expect(wire.stats.streamsExpired).toBeGreaterThan(0);
    const after = await post("/v2/pipeline", { requests: [{ type: "execute", stmt: stmt("SELECT count(*) FROM t WHERE name = 'held'") }] });
    expect(after.json.results[0].response.result.rows).toEqual([[{ type: "integer", value: "0" }]]);
    const closed = await post("/v2/pipeline", { baton: after.json.baton, requests: [{ type: "close" }] });
    expect(closed.json).toEqual({ baton: null, base_url: null, results: [{ type: "ok", response: { type: "close" } }] });
    expect((await post("/v2/pipeline", { baton: after.json.baton, requests: [] })).status).toBe(400);
    expect(wire.openStreams()).toBe(0);
  });

  test("sequence, describe, stored SQL, statement-count and version errors", async () => {
    const res = await post("/v2/pipeline", {
      requests: [
        { type: "sequence", sql: "CREATE TABLE s (a); INSERT INTO s VALUES (1); -- done\n INSERT INTO s VALUES (2);" },
        { type: "store_sql", sql_id: 1, sql: "SELECT sum(a) AS total FROM s WHERE a > :min" },
        { type: "execute", stmt: { sql_id: 1, named_args: [{ name: ":min", value: { type: "integer", value: "0" } }] } },
        { type: "describe", sql_id: 1 },
        { type: "close_sql", sql_id: 1 },
        { type: "execute", stmt: stmt("SELECT 1; SELECT 2") },
        { type: "execute", stmt: stmt("  -- nothing\n") },
        { type: "sequence", sql: "INSERT INTO s VALUES (3); INSERT INTO nope VALUES (1); INSERT INTO s VALUES (4)" },
        { type: "execute", stmt: stmt("SELECT count(*) FROM s") },
        { type: "execute", stmt: stmt("SELECT json('not json')") },
        { type: "execute", stmt: stmt("SELEC 1") },
        { type: "close" },
      ],
    });
    const r = res.json.results;
    expect(r[2].response.result.rows).toEqual([[{ type: "integer", value: "3" }]]);
    expect(r[3].response.result).toMatchObject({ params: [{ name: ":min" }], cols: [{ name: "total" }], is_explain: false, is_readonly: true });
    expect(r[5].error.code).toBe("SQL_MANY_STATEMENTS");
    expect(r[6].error.code).toBe("SQL_NO_STATEMENT");
    // As sqld (rusqlite): errors located while preparing are SQL_INPUT_ERROR; SQLITE_ERROR while running has
    // no rusqlite variant and goes out as SQLITE_UNKNOWN.
    expect(r[7].error).toEqual({ message: "SQL input error: no such table: nope (at offset 12)", code: "SQL_INPUT_ERROR" });
    expect(r[8].response.result.rows).toEqual([[{ type: "integer", value: "3" }]]); // the sequence stopped at its error
    expect(r[9].error).toEqual({ message: "SQLite error: malformed JSON", code: "SQLITE_UNKNOWN" });
    expect(r[10].error).toEqual({ message: 'SQL input error: near "SELEC": syntax error (at offset 0)', code: "SQL_INPUT_ERROR" });
    // get_autocommit is Hrana 3; a v2 request with it is a protocol error (400).
    expect((await post("/v2/pipeline", { requests: [{ type: "get_autocommit" }] })).status).toBe(400);
  });

  test("v3 cursor: newline-delimited entries", async () => {
    const res = await fetch(`${wire.url}/v3/cursor`, {
      method: "POST",
      body: JSON.stringify({ batch: { steps: [{ stmt: stmt("SELECT a FROM s ORDER BY a") }, { stmt: stmt("SELECT * FROM nope") }] } }),
    });
    const lines = (await res.text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0].baton).toBeString();
    expect(lines.slice(1).map((l) => l.type)).toEqual(["step_begin", "row", "row", "row", "step_end", "step_error"]);
    await post("/v3/pipeline", { baton: lines[0].baton, requests: [{ type: "close" }] });
  });

  test("a write waits for another stream's transaction instead of failing (@libsql/client on both sides)", async () => {
    const a = createClient({ url: wire.url });
    const b = createClient({ url: wire.url });
    const tx = await a.transaction("write");
    await tx.execute("INSERT INTO s VALUES (100)");
    const retriesBefore = wire.stats.busyRetries;
    const waiting = b.execute("INSERT INTO s VALUES (200)");
    await Bun.sleep(100);
    expect(wire.stats.busyRetries).toBeGreaterThan(retriesBefore);
    await tx.commit();
    expect((await waiting).rowsAffected).toBe(1);
    expect(Number((await b.execute("SELECT count(*) AS n FROM s WHERE a IN (100, 200)")).rows[0]!.n)).toBe(2);
    a.close();
    b.close();
  });

  test("a write that gives up on the lock returns SQLITE_BUSY and leaves no wedged connection behind", async () => {
    const quick = startHranaStandin({ file: join(dir, "wire.db"), busyTimeoutMs: 50 });
    const a = createClient({ url: quick.url });
    const b = createClient({ url: quick.url });
    try {
      const tx = await a.transaction("write");
      await tx.execute("INSERT INTO s VALUES (300)");
      const busy = await b.execute("INSERT INTO s VALUES (400)").then(() => null, (e: unknown) => e);
      expect((busy as { code?: string })?.code).toBe("SQLITE_BUSY");
      await tx.commit();
      // One stream, one connection, for the busy write and the next ones (a transaction keeps its stream).
      const btx = await b.transaction("write");
      await btx.execute("INSERT INTO s VALUES (500)");
      await btx.commit();
      expect((await a.execute("SELECT a FROM s WHERE a >= 300 ORDER BY a")).rows.map((r) => Number(r.a))).toEqual([300, 500]);
      await a.execute("INSERT INTO s VALUES (600)");
    } finally {
      a.close();
      b.close();
      await quick.stop();
    }
  });
});

// Found while building the stand-in: a remote database that stops answering used to wedge Brainbox (no
// request deadline, one connection). Requests now have a deadline and run concurrently.
test("a remote database that stops answering: health degrades, then recovers", async () => {
  const hang = startHranaStandin({ file: join(dir, "hang.db") });
  const server = await startTestServer({ BRAINBOX_DATABASE_URL: hang.url, BRAINBOX_DATABASE_TIMEOUT_MS: "1500" });
  try {
    hang.stall(true);
    const during = await Promise.race([server.api("/api/health", { key: null }).then((r) => r.status), Bun.sleep(40_000).then(() => "no answer")]);
    expect(during).toBe(503);
    hang.stall(false);
    const after = await Promise.race([server.api("/api/health", { key: null }).then((r) => r.status), Bun.sleep(5_000).then(() => "no answer")]);
    expect(after).toBe(200);
  } finally {
    await hang.stop();
    await server.close();
  }
});
