// A loopback stand-in for a remote libSQL server (sqld / Turso), speaking the Hrana-over-HTTP wire protocol
// (JSON encoding, versions 2 and 3) over a local libSQL file opened with the native `libsql` package.
//
// What it serves, following libsql-server's behaviour (libsql-server/src/hrana/{http,stmt,batch}.rs):
// - `GET /`, `/v2`, `/v3`, `/health`: 200 (version probes). `/v3-protobuf*`: 404, so a probing client
//   falls back to JSON.
// - `POST /v2/pipeline`, `POST /v3/pipeline`: `{baton, requests}` → `{baton, base_url, results}`. Request
//   types: close, execute, batch (conditions ok/error/not/and/or/is_autocommit), sequence, describe,
//   store_sql, close_sql, get_autocommit (v3). Statement errors are per-request `{type:"error"}` results
//   with SQLite primary codes (`SQLITE_CONSTRAINT`) and `SQLite error: <message>`, as sqld sends them.
// - `POST /v3/cursor`: `{baton, batch}` → newline-delimited JSON (cursor header, then step_begin / row /
//   step_end / step_error entries).
// - Streams: a request without a baton opens a stream, which owns one dedicated connection to the file,
//   kept across HTTP requests (interactive transactions span several requests). Every response carries a
//   fresh baton (stream id + sequence number + HMAC); a stale, forged or concurrently used baton is a 400,
//   an idle stream expires (connection closed, open transaction rolled back) after `streamIdleMs` and then
//   answers 500 `STREAM_EXPIRED`. `close` (or a protocol error) ends the stream; its baton becomes null.
// - Locking: connections have no busy handler (a synchronous busy wait would freeze this process, which
//   may also host the client holding the lock); SQLITE_BUSY is retried asynchronously up to
//   `busyTimeoutMs`, like sqld waiting for the write lock without blocking other streams.
// - Optional bearer `authToken`: a request without it gets 401.
// - `stall(true)`: Hrana requests hang unanswered, to test a client against a server that stops responding.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import Database from "libsql";

type Conn = InstanceType<typeof Database>;
type Statement = ReturnType<Conn["prepare"]>;
type Json = Record<string, any>;

export interface HranaStandinOptions {
  /** The libSQL database file (created if missing, put in WAL mode). */
  file: string;
  /** When set, requests must carry `authorization: Bearer <authToken>`. */
  authToken?: string;
  /** Idle time after which a stream expires (sqld: 10 s). */
  streamIdleMs?: number;
  /** How long a statement waits for a lock held by another stream before SQLITE_BUSY is returned. */
  busyTimeoutMs?: number;
}

export interface HranaStandinStats {
  /** HTTP requests on the Hrana endpoints (pipeline and cursor). */
  httpRequests: number;
  streamsOpened: number;
  streamsClosed: number;
  streamsExpired: number;
  /** Stream requests by type (execute, batch, close, ...). */
  byType: Record<string, number>;
  /** SQL statements run (execute, batch steps, sequence statements, cursor steps). */
  statements: number;
  /** Statement errors returned to the client, by code. */
  errors: Record<string, number>;
  /** HTTP requests that ended with the stream inside an open transaction (interactive transactions). */
  heldTransactions: number;
  /** SQLITE_BUSY retries (a statement waiting for another stream's lock). */
  busyRetries: number;
  /** 4xx/5xx HTTP answers (bad baton, expired stream, bad JSON, auth). */
  httpErrors: number;
}

export interface HranaStandin {
  url: string;
  /** HTTP requests served on the Hrana endpoints so far. */
  readonly requests: number;
  stats: HranaStandinStats;
  /** Streams currently open (each holds a connection). */
  openStreams(): number;
  /** While stalled, Hrana requests are accepted but never answered (a black-holed server); `false` resumes
   * answering new requests. */
  stall(on: boolean): void;
  stop(): Promise<void>;
}

/** An error returned to the client as a Hrana `Error` inside a result (the stream stays open). */
class StmtError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** A protocol violation: the HTTP request fails with 400 and the stream is closed (as sqld does). */
class ProtocolError extends Error {}

interface Stream {
  id: string;
  seq: number;
  conn: Conn | null;
  sqls: Map<number, string>;
  acquired: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

const MAX_SQL_COUNT = 50;
const MAX_STORED_SQL_BYTES = 5000;

// SQLite primary result codes → the names sqld sends (libsql-server/src/hrana/stmt.rs sqlite_error_code);
// SQLITE_ERROR (1) has no rusqlite ErrorCode variant and goes out as SQLITE_UNKNOWN.
const PRIMARY_CODES: Record<number, string> = {
  2: "SQLITE_INTERNAL",
  3: "SQLITE_PERM",
  4: "SQLITE_ABORT",
  5: "SQLITE_BUSY",
  6: "SQLITE_LOCKED",
  7: "SQLITE_NOMEM",
  8: "SQLITE_READONLY",
  9: "SQLITE_INTERRUPT",
  10: "SQLITE_IOERR",
  11: "SQLITE_CORRUPT",
  12: "SQLITE_NOTFOUND",
  13: "SQLITE_FULL",
  14: "SQLITE_CANTOPEN",
  15: "SQLITE_PROTOCOL",
  17: "SQLITE_SCHEMA",
  18: "SQLITE_TOOBIG",
  19: "SQLITE_CONSTRAINT",
  20: "SQLITE_MISMATCH",
  21: "SQLITE_MISUSE",
  22: "SQLITE_NOLFS",
  23: "SQLITE_AUTH",
  25: "SQLITE_RANGE",
  26: "SQLITE_NOTADB",
};

export function startHranaStandin(opts: HranaStandinOptions): HranaStandin {
  const streamIdleMs = opts.streamIdleMs ?? 10_000;
  const busyTimeoutMs = opts.busyTimeoutMs ?? 5_000;
  const batonKey = randomBytes(32);
  const streams = new Map<string, Stream | "expired">();
  const stats: HranaStandinStats = {
    httpRequests: 0,
    streamsOpened: 0,
    streamsClosed: 0,
    streamsExpired: 0,
    byType: {},
    statements: 0,
    errors: {},
    heldTransactions: 0,
    busyRetries: 0,
    httpErrors: 0,
  };

  // The file: created, WAL (sqld runs its databases in WAL mode).
  const setup = openConn(opts.file);
  setup.exec("PRAGMA journal_mode=WAL");
  setup.close();

  // ---- batons ---------------------------------------------------------------------------------------------

  const mac = (payload: string) => createHmac("sha256", batonKey).update(payload).digest("base64url");
  const encodeBaton = (s: Stream) => `${s.id}.${s.seq}.${mac(`${s.id}.${s.seq}`)}`;

  /** The stream a baton names, or an HTTP error (sqld: BatonInvalid/BatonReused 400, StreamExpired 500). */
  function acquire(baton: unknown): Stream | Response {
    if (baton === undefined || baton === null) {
      const stream: Stream = { id: randomBytes(8).toString("hex"), seq: randomBytes(4).readUInt32BE(), conn: openConn(opts.file), sqls: new Map(), acquired: true };
      streams.set(stream.id, stream);
      stats.streamsOpened++;
      return stream;
    }
    if (typeof baton !== "string") return protocolError("Baton must be a string");
    const [id = "", seq = "", tag = ""] = baton.split(".");
    const expected = Buffer.from(mac(`${id}.${seq}`));
    if (Buffer.byteLength(tag) !== expected.length || !timingSafeEqual(Buffer.from(tag), expected)) return protocolError("Received an invalid baton");
    const handle = streams.get(id);
    if (handle === undefined) return protocolError("Received an invalid baton");
    if (handle === "expired") return jsonResponse(500, { message: "The stream has expired due to inactivity", code: "STREAM_EXPIRED" });
    if (handle.acquired || String(handle.seq) !== seq) return protocolError("Received a baton that has already been used");
    clearTimeout(handle.timer);
    handle.acquired = true;
    handle.seq = (handle.seq + 1) >>> 0; // the next request must show the next baton
    return handle;
  }

  /** Ends the request's hold on the stream: its next baton, or null once closed. */
  function release(stream: Stream): string | null {
    stream.acquired = false;
    if (!stream.conn) {
      streams.delete(stream.id);
      return null;
    }
    if (stream.conn.inTransaction) stats.heldTransactions++;
    stream.timer = setTimeout(() => expire(stream), streamIdleMs);
    return encodeBaton(stream);
  }

  function closeStream(stream: Stream) {
    clearTimeout(stream.timer);
    if (stream.conn) {
      closeConn(stream.conn);
      stream.conn = null;
      stats.streamsClosed++;
    }
    stream.sqls.clear();
  }

  function expire(stream: Stream) {
    if (stream.acquired || streams.get(stream.id) !== stream) return;
    closeStream(stream);
    stats.streamsExpired++;
    streams.set(stream.id, "expired");
  }

  // ---- statements ---------------------------------------------------------------------------------------

  function sqlOf(stream: Stream, sql: unknown, sqlId: unknown): string {
    if (typeof sql === "string" && sqlId === undefined) return sql;
    if (sql === undefined && typeof sqlId === "number") {
      const stored = stream.sqls.get(sqlId);
      if (stored === undefined) throw new ProtocolError(`SQL text with id ${sqlId} was not found`);
      return stored;
    }
    if (sql !== undefined && sqlId !== undefined) throw new ProtocolError("Both `sql` and `sql_id` were given");
    throw new ProtocolError("Neither `sql` nor `sql_id` was given");
  }

  interface Prepared {
    sql: string;
    params: unknown[] | Record<string, unknown>;
    wantRows: boolean;
  }

  /** Checks a Hrana `Stmt` (one statement, args of one kind) without running it. */
  function prepareStmt(stream: Stream, stmt: Json): Prepared {
    if (typeof stmt !== "object" || stmt === null) throw new ProtocolError("Stmt must be an object");
    const sql = sqlOf(stream, stmt.sql, stmt.sql_id);
    const count = splitStatements(sql).length;
    if (count === 0) throw new StmtError("SQL string does not contain any statement", "SQL_NO_STATEMENT");
    if (count > 1) throw new StmtError("SQL string contains more than one statement", "SQL_MANY_STATEMENTS");
    const args: Json[] = stmt.args ?? [];
    const namedArgs: Json[] = stmt.named_args ?? [];
    if (!Array.isArray(args) || !Array.isArray(namedArgs)) throw new ProtocolError("args and named_args must be arrays");
    let params: Prepared["params"];
    if (namedArgs.length === 0) params = args.map(decodeValue);
    else if (args.length === 0) {
      params = {};
      // libsql binds named parameters by their bare name; Hrana names may carry the prefix (`:x`, `@x`, `$x`).
      for (const arg of namedArgs) params[String(arg.name).replace(/^[:@$]/, "")] = decodeValue(arg.value);
    } else throw new StmtError("Specifying both positional and named arguments is not supported", "ARGS_BOTH_POSITIONAL_AND_NAMED");
    return { sql, params, wantRows: stmt.want_rows ?? true };
  }

  /** Runs one statement on the stream's connection, waiting (asynchronously) for locks. */
  async function runStmt(stream: Stream, p: Prepared): Promise<Json> {
    stats.statements++;
    const conn = stream.conn!;
    let stmt: Statement;
    try {
      stmt = conn.prepare(p.sql);
    } catch (e) {
      throw toStmtError(e, p.sql);
    }
    const deadline = Date.now() + busyTimeoutMs;
    for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
      try {
        return runOnce(conn, stmt, p);
      } catch (e) {
        if (!isBusy(e)) throw toStmtError(e);
        // libsql-js leaves a statement that failed with SQLITE_BUSY in progress (not reset): the connection
        // keeps an implicit transaction open, so its later autocommit writes are never committed and it
        // holds the write lock. Running the same statement again resets it, so retries reuse it ...
        if (Date.now() < deadline) {
          stats.busyRetries++;
          await Bun.sleep(wait);
          continue;
        }
        // ... and when giving up outside a transaction, the stream gets a fresh connection (the failed
        // statement did nothing). Inside one, the client's ROLLBACK aborts it.
        if (!conn.inTransaction && stream.conn === conn) {
          closeConn(conn);
          stream.conn = openConn(opts.file);
        }
        throw toStmtError(e);
      }
    }
  }

  function runOnce(conn: Conn, stmt: Statement, p: Prepared): Json {
    const started = performance.now();
    const before = totalChanges(conn);
    let cols: Json[] = [];
    let rows: Json[][] = [];
    if (stmt.reader) {
      stmt.raw(true).safeIntegers(true);
      const values = stmt.all(p.params) as unknown[][];
      cols = stmt.columns().map((c) => ({ name: c.name, decltype: c.type ?? null }));
      if (p.wantRows) rows = values.map((row) => row.map(encodeValue));
    } else {
      stmt.run(p.params);
    }
    // sqlite3_changes() is stale after a statement that wrote nothing: count it only if this one wrote.
    const [total, changes, lastRowid] = conn.prepare("SELECT total_changes(), changes(), last_insert_rowid()").raw(true).safeIntegers(true).get([]) as bigint[];
    const affected = total !== before ? Number(changes) : 0;
    return {
      cols,
      rows,
      affected_row_count: affected,
      last_insert_rowid: String(lastRowid),
      rows_read: rows.length,
      rows_written: affected,
      query_duration_ms: performance.now() - started,
    };
  }

  function stepError(e: unknown): Json {
    const err = e instanceof StmtError ? e : toStmtError(e);
    stats.errors[err.code] = (stats.errors[err.code] ?? 0) + 1;
    return { message: err.message, code: err.code };
  }

  /** Evaluates a batch: each step runs when its condition holds; results and errors by step. */
  async function runBatch(stream: Stream, batch: Json, version: number, onStep?: (i: number, result: Json | null, error: Json | null) => void) {
    const steps: Json[] = batch?.steps;
    if (!Array.isArray(steps)) throw new ProtocolError("Batch must have steps");
    // As sqld: every step's statement and condition is checked before anything runs.
    const prepared = steps.map((step, i) => {
      if (step.condition !== undefined && step.condition !== null) checkCond(step.condition, i, version);
      return prepareStmt(stream, step.stmt);
    });
    const outcome: Array<"ok" | "error" | "skipped"> = [];
    const stepResults: Array<Json | null> = [];
    const stepErrors: Array<Json | null> = [];
    for (let i = 0; i < steps.length; i++) {
      const cond = steps[i]!.condition;
      if (cond && !evalCond(cond, outcome, stream.conn!)) {
        outcome.push("skipped");
        stepResults.push(null);
        stepErrors.push(null);
        onStep?.(i, null, null);
        continue;
      }
      try {
        const result = await runStmt(stream, prepared[i]!);
        outcome.push("ok");
        stepResults.push(result);
        stepErrors.push(null);
        onStep?.(i, result, null);
      } catch (e) {
        const error = stepError(e);
        outcome.push("error");
        stepResults.push(null);
        stepErrors.push(error);
        onStep?.(i, null, error);
      }
    }
    return { step_results: stepResults, step_errors: stepErrors };
  }

  /** One stream request → its StreamResult. ProtocolErrors propagate (they fail the HTTP request). */
  async function handleRequest(stream: Stream, request: Json, version: number): Promise<Json> {
    const type = request?.type;
    stats.byType[String(type)] = (stats.byType[String(type)] ?? 0) + 1;
    const needConn = () => {
      if (!stream.conn) throw new ProtocolError("Stream for this baton was closed");
      return stream.conn;
    };
    const ok = (response: Json) => ({ type: "ok", response: { type, ...response } });
    try {
      switch (type) {
        case "close":
          closeStream(stream);
          return ok({});
        case "execute": {
          needConn();
          return ok({ result: await runStmt(stream, prepareStmt(stream, request.stmt)) });
        }
        case "batch":
          needConn();
          return ok({ result: await runBatch(stream, request.batch, version) });
        case "sequence": {
          needConn();
          const sql = sqlOf(stream, request.sql, request.sql_id);
          for (const statement of splitStatements(sql)) await runStmt(stream, { sql: statement, params: [], wantRows: false });
          return ok({});
        }
        case "describe": {
          const conn = needConn();
          return ok({ result: describe(conn, sqlOf(stream, request.sql, request.sql_id)) });
        }
        case "store_sql": {
          const id = request.sql_id;
          if (typeof id !== "number" || typeof request.sql !== "string") throw new ProtocolError("store_sql needs sql_id and sql");
          if (stream.sqls.has(id)) throw new ProtocolError(`SQL text with id ${id} already exists`);
          if (stream.sqls.size >= MAX_SQL_COUNT) throw new StmtError(`The server already stores ${stream.sqls.size} SQL texts, it cannot store more`, "SQL_STORE_TOO_MANY");
          const size = Buffer.byteLength(request.sql);
          if (size > MAX_STORED_SQL_BYTES) throw new StmtError(`The statement is too large to be stored: ${size}/${MAX_STORED_SQL_BYTES}`, "SQL_STORE_TOO_LARGE");
          stream.sqls.set(id, request.sql);
          return ok({});
        }
        case "close_sql":
          stream.sqls.delete(request.sql_id);
          return ok({});
        case "get_autocommit":
          if (version < 3) throw new ProtocolError("The `get_autocommit` request is supported only from protocol version 3");
          return ok({ is_autocommit: !needConn().inTransaction });
        default:
          throw new ProtocolError(`Unknown stream request type ${JSON.stringify(type)}`);
      }
    } catch (e) {
      if (e instanceof ProtocolError) throw e;
      return { type: "error", error: stepError(e) };
    }
  }

  // ---- HTTP -----------------------------------------------------------------------------------------------

  async function readBody(req: Request): Promise<Json | Response> {
    try {
      const body = await req.json();
      if (typeof body !== "object" || body === null) return protocolError("Request body must be a JSON object");
      return body as Json;
    } catch (e) {
      return protocolError(`Could not deserialize JSON request body: ${(e as Error).message}`);
    }
  }

  async function pipeline(req: Request, version: number): Promise<Response> {
    const body = await readBody(req);
    if (body instanceof Response) return body;
    if (!Array.isArray(body.requests)) return protocolError("`requests` must be an array");
    const stream = acquire(body.baton);
    if (stream instanceof Response) return stream;
    const results: Json[] = [];
    try {
      for (const request of body.requests as Json[]) results.push(await handleRequest(stream, request, version));
    } catch (e) {
      closeStream(stream);
      streams.delete(stream.id);
      if (e instanceof ProtocolError) return protocolError(e.message);
      throw e;
    }
    return jsonResponse(200, { baton: release(stream), base_url: null, results });
  }

  async function cursor(req: Request): Promise<Response> {
    const body = await readBody(req);
    if (body instanceof Response) return body;
    const stream = acquire(body.baton);
    if (stream instanceof Response) return stream;
    const lines: Json[] = [];
    try {
      if (!stream.conn) throw new ProtocolError("Stream for this baton was closed");
      await runBatch(stream, body.batch, 3, (step, result, error) => {
        if (error) lines.push({ type: "step_error", step, error });
        else if (result) {
          lines.push({ type: "step_begin", step, cols: result.cols });
          for (const row of result.rows) lines.push({ type: "row", row });
          lines.push({ type: "step_end", affected_row_count: result.affected_row_count, last_insert_rowid: result.last_insert_rowid });
        }
      });
    } catch (e) {
      closeStream(stream);
      streams.delete(stream.id);
      if (e instanceof ProtocolError) return protocolError(e.message);
      throw e;
    }
    const head = { baton: release(stream), base_url: null };
    const text = [head, ...lines].map((line) => JSON.stringify(line) + "\n").join("");
    return new Response(text, { headers: { "content-type": "text/plain" } });
  }

  let requests = 0;
  let stalled = false;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0, // a stalled request stays open, as with a black-holed server
    async fetch(req) {
      const path = new URL(req.url).pathname.replace(/\/+$/, "") || "/";
      const hrana = req.method === "POST" && /^\/v[23]\/(pipeline|cursor)$/.test(path);
      if (hrana) {
        requests++;
        stats.httpRequests++;
        if (stalled) return new Promise<Response>(() => {});
      }
      const res = await route(req, path);
      if (res.status >= 400) stats.httpErrors++;
      return res;
    },
  });

  async function route(req: Request, path: string): Promise<Response> {
    if (opts.authToken !== undefined && path !== "/health" && req.headers.get("authorization") !== `Bearer ${opts.authToken}`) {
      return new Response("Unauthorized: the authorization header is missing or wrong", { status: 401, headers: { "content-type": "text/plain" } });
    }
    if (req.method === "GET" && ["/", "/v2", "/v3", "/health", "/version"].includes(path)) {
      return new Response(path === "/version" ? "hrana-standin" : "Hello, this is HTTP API v2 (Hrana over HTTP)", { headers: { "content-type": "text/plain" } });
    }
    if (req.method === "POST" && path === "/v2/pipeline") return pipeline(req, 2);
    if (req.method === "POST" && path === "/v3/pipeline") return pipeline(req, 3);
    if (req.method === "POST" && path === "/v3/cursor") return cursor(req);
    return new Response("Not found", { status: 404, headers: { "content-type": "text/plain" } });
  }

  return {
    url: `http://127.0.0.1:${server.port}`,
    get requests() {
      return requests;
    },
    stats,
    openStreams: () => [...streams.values()].filter((s) => s !== "expired" && s.conn).length,
    stall(on) {
      stalled = on;
    },
    async stop() {
      await server.stop(true);
      for (const s of streams.values()) if (s !== "expired") closeStream(s);
      streams.clear();
    },
  };
}

// ---- helpers ----------------------------------------------------------------------------------------------

function openConn(file: string): Conn {
  // timeout 0: no busy handler, SQLITE_BUSY comes back at once and is retried asynchronously.
  return new Database(file, { timeout: 0 });
}

function closeConn(conn: Conn) {
  try {
    if (conn.inTransaction) conn.exec("ROLLBACK");
  } catch {
    // closing rolls back anyway
  }
  conn.close();
}

function totalChanges(conn: Conn): bigint {
  return (conn.prepare("SELECT total_changes()").raw(true).safeIntegers(true).get([]) as bigint[])[0]!;
}

function isBusy(e: unknown): boolean {
  const raw = (e as { rawCode?: number })?.rawCode;
  return typeof raw === "number" ? (raw & 0xff) === 5 : /^SQLITE_BUSY/.test(String((e as { code?: string })?.code));
}

/**
 * A driver error as sqld reports it. Errors while preparing (`sql` given) that SQLite locates in the text are
 * rusqlite's SqlInputError: `SQL_INPUT_ERROR`, "SQL input error: <message> (at offset N)" (the offset is
 * found here from the token the message names). Other SQLite errors carry the primary code's name, with
 * SQLITE_ERROR itself as `SQLITE_UNKNOWN` (rusqlite has no variant for it), and "SQLite error: <message>".
 */
function toStmtError(e: unknown, sql?: string): StmtError {
  if (e instanceof StmtError) return e;
  const raw = (e as { rawCode?: number })?.rawCode;
  const message = (e as Error)?.message ?? String(e);
  if (sql !== undefined && raw === 1) {
    const token = /near "([^"]+)"/.exec(message)?.[1] ?? /: ([^\s:]+)$/.exec(message)?.[1] ?? /(?:table|index|view|trigger) (\S+) already exists/.exec(message)?.[1];
    const offset = token ? sql.toLowerCase().indexOf(token.toLowerCase()) : -1;
    return new StmtError(`SQL input error: ${message}${offset >= 0 ? ` (at offset ${offset})` : ""}`, "SQL_INPUT_ERROR");
  }
  if (typeof raw === "number") return new StmtError(`SQLite error: ${message}`, PRIMARY_CODES[raw & 0xff] ?? "SQLITE_UNKNOWN");
  // Binding errors from the driver (wrong argument count, unsupported value) are sqld's ARGS_INVALID.
  return new StmtError(`Arguments do not match SQL parameters: ${message}`, "ARGS_INVALID");
}

function decodeValue(v: Json): unknown {
  switch (v?.type) {
    case "null":
      return null;
    case "integer": {
      const n = BigInt(v.value);
      if (n > 0x7fffffffffffffffn || n < -0x8000000000000000n) throw new ProtocolError("Integer value out of range");
      return n;
    }
    case "float":
      return Number(v.value);
    case "text":
      return String(v.value);
    case "blob":
      return Buffer.from(String(v.base64 ?? ""), "base64");
    default:
      throw new ProtocolError(`Unknown value type ${JSON.stringify(v?.type)}`);
  }
}

function encodeValue(v: unknown): Json {
  if (v === null || v === undefined) return { type: "null" };
  if (typeof v === "bigint") return { type: "integer", value: v.toString() };
  if (typeof v === "number") return { type: "float", value: v };
  if (typeof v === "string") return { type: "text", value: v };
  if (v instanceof Uint8Array) return { type: "blob", base64: Buffer.from(v).toString("base64") };
  throw new Error(`cannot encode ${typeof v}`);
}

function checkCond(cond: Json, stepIndex: number, version: number): void {
  switch (cond?.type) {
    case "ok":
    case "error":
      if (!Number.isInteger(cond.step) || cond.step < 0 || cond.step >= stepIndex) throw new ProtocolError("Batch condition refers to an invalid step");
      return;
    case "not":
      return checkCond(cond.cond, stepIndex, version);
    case "and":
    case "or":
      if (!Array.isArray(cond.conds)) throw new ProtocolError("Batch condition needs conds");
      for (const c of cond.conds) checkCond(c, stepIndex, version);
      return;
    case "is_autocommit":
      if (version < 3) throw new ProtocolError("BatchCond of type `is_autocommit` is supported only from protocol version 3");
      return;
    default:
      throw new ProtocolError(`Unknown batch condition ${JSON.stringify(cond?.type)}`);
  }
}

function evalCond(cond: Json, outcome: Array<"ok" | "error" | "skipped">, conn: Conn): boolean {
  switch (cond.type) {
    case "ok":
      return outcome[cond.step] === "ok";
    case "error":
      return outcome[cond.step] === "error";
    case "not":
      return !evalCond(cond.cond, outcome, conn);
    case "and":
      return (cond.conds as Json[]).every((c) => evalCond(c, outcome, conn));
    case "or":
      return (cond.conds as Json[]).some((c) => evalCond(c, outcome, conn));
    case "is_autocommit":
      return !conn.inTransaction;
  }
  return false;
}

function describe(conn: Conn, sql: string): Json {
  const statements = splitStatements(sql);
  if (statements.length === 0) throw new StmtError("SQL string does not contain any statement", "SQL_NO_STATEMENT");
  if (statements.length > 1) throw new StmtError("SQL string contains more than one statement", "SQL_MANY_STATEMENTS");
  let stmt;
  try {
    stmt = conn.prepare(sql);
  } catch (e) {
    throw toStmtError(e, sql);
  }
  const words = tokens(sql).filter((t) => t.kind === "word");
  const first = words[0]?.text.toUpperCase();
  const params: Json[] = [];
  for (const t of tokens(sql)) if (t.kind === "param") params.push({ name: t.text === "?" || /^\?\d*$/.test(t.text) ? null : t.text });
  return {
    params,
    cols: stmt.reader ? stmt.columns().map((c) => ({ name: c.name, decltype: c.type ?? null })) : [],
    is_explain: first === "EXPLAIN",
    is_readonly: ["SELECT", "VALUES", "EXPLAIN"].includes(first ?? "") || (first === "WITH" && stmt.reader && !words.some((w) => ["INSERT", "UPDATE", "DELETE", "REPLACE"].includes(w.text.toUpperCase()))),
  };
}

// ---- a small SQL lexer: statement boundaries (as sqlite3_complete sees them) and parameters -------------

interface Token {
  kind: "word" | "semi" | "param" | "other";
  text: string;
  start: number;
  end: number;
}

function tokens(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const start = i;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "-" && sql[i + 1] === "-") {
      while (i < sql.length && sql[i] !== "\n") i++;
    } else if (c === "/" && sql[i + 1] === "*") {
      const close = sql.indexOf("*/", i + 2);
      i = close < 0 ? sql.length : close + 2;
    } else if (c === "'" || c === '"' || c === "`") {
      i++;
      while (i < sql.length) {
        if (sql[i] === c) {
          if (sql[i + 1] === c) i += 2;
          else break;
        } else i++;
      }
      i++;
      out.push({ kind: c === "'" ? "other" : "word", text: sql.slice(start, i), start, end: i });
    } else if (c === "[") {
      const close = sql.indexOf("]", i);
      i = close < 0 ? sql.length : close + 1;
      out.push({ kind: "word", text: sql.slice(start, i), start, end: i });
    } else if (c === ";") {
      i++;
      out.push({ kind: "semi", text: ";", start, end: i });
    } else if (c === "?" || ((c === ":" || c === "@" || c === "$") && /[A-Za-z0-9_]/.test(sql[i + 1] ?? ""))) {
      i++;
      while (i < sql.length && /[A-Za-z0-9_]/.test(sql[i]!)) i++;
      out.push({ kind: "param", text: sql.slice(start, i), start, end: i });
    } else if (/[A-Za-z0-9_\u0080-\uffff]/.test(c)) {
      while (i < sql.length && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[i]!)) i++;
      out.push({ kind: "word", text: sql.slice(start, i), start, end: i });
    } else {
      i++;
      out.push({ kind: "other", text: c, start, end: i });
    }
  }
  return out;
}

/** Splits SQL text into its statements (empty ones dropped); a trigger body's `;` do not end a statement. */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current: Token[] = [];
  let begin = 0;
  for (const t of tokens(sql)) {
    if (t.kind !== "semi") {
      current.push(t);
      continue;
    }
    const words = current.filter((x) => x.kind === "word").map((x) => x.text.toUpperCase());
    const trigger = words[0] === "CREATE" && (words[1] === "TRIGGER" || ((words[1] === "TEMP" || words[1] === "TEMPORARY") && words[2] === "TRIGGER"));
    if (trigger && current.at(-1)?.text.toUpperCase() !== "END") {
      current.push(t);
      continue;
    }
    if (current.length > 0) out.push(sql.slice(begin, t.end).trim());
    current = [];
    begin = t.end;
  }
  if (current.length > 0) out.push(sql.slice(begin).trim());
  return out;
}

const protocolError = (message: string) => new Response(message, { status: 400, headers: { "content-type": "text/plain" } });
const jsonResponse = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
