// Opens the database (embedded libSQL file, or a remote libSQL server) and applies migrations.
//
// Rule for the serving process: no interactive transactions (db.transaction) while requests run. The
// embedded driver is synchronous, so a second connection writing while a transaction waits on an `await`
// busy-waits and freezes the event loop (DESIGN.md "Database"). Write with single statements
// (UPDATE ... WHERE ... RETURNING, INSERT ... ON CONFLICT) or db.batch, which runs in one synchronous go.
// Interactive transactions are for start-up and CLI commands only.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createClient, type Client } from "@libsql/client";
import { openFileClient } from "./file-client";
import { withChangeVersion, type BrainboxClient } from "./change-version";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "./schema";
import { migrations } from "./migrations";
import type { Logger } from "../lib/log";
import { createStorageHealth, type StorageHealth } from "../lib/storage-health";

export type RootDb = LibSQLDatabase<typeof schema>;
/** The database or an open transaction: services take either. */
export type Db = RootDb | Parameters<Parameters<RootDb["transaction"]>[0]>[0];
export interface Database {
  db: RootDb;
  client: Client;
  /** `file:...` path or the remote URL, for logs and health. */
  location: string;
  /** The embedded database file (worker threads open their own read connections to it); null when remote. */
  file: string | null;
  /**
   * A number that changes whenever the database may have changed, so what was read under one value can be
   * reused while it holds. Embedded file: at once for writes from this process, within
   * DATA_VERSION_CHECK_MS for commits from other processes. Remote server: at once for writes from this
   * process, within REMOTE_CHANGE_WINDOW_MS for other replicas (a server has no cheap change signal).
   */
  changeVersion(): number;
  /** Whether the last write failed for lack of space (health). */
  storage: StorageHealth;
  /** Resolves when the database answers a trivial query; rejects like a query would (health). */
  ping(): Promise<void>;
  close(): void;
}

/** How long a remote database is assumed unchanged by other replicas (see Database.changeVersion). */
export const REMOTE_CHANGE_WINDOW_MS = 2000;

const databases = new WeakMap<object, Database>();

/** The change version of the database behind a drizzle handle; null for a transaction or an unknown handle. */
export function changeVersionOf(db: Db): number | null {
  return databases.get(db)?.changeVersion() ?? null;
}

/**
 * The change version only where it is tight enough to reuse data read under it: the embedded file (this
 * process's writes at once, other processes' within DATA_VERSION_CHECK_MS). Null for a remote server, whose
 * version trusts other replicas for seconds, and for a transaction or an unknown handle.
 */
export function exactChangeVersionOf(db: Db): number | null {
  const database = databases.get(db);
  return database && database.client.protocol === "file" ? database.changeVersion() : null;
}

export function openDatabase(opts: { dataDir: string; url?: string; authToken?: string; remoteTimeoutMs?: number; checkpointThread?: boolean; log?: Logger }): Database {
  const storage = createStorageHealth();
  const client = opts.url ? openRemote(opts.url, opts.authToken, opts.remoteTimeoutMs ?? 15_000, storage) : openEmbedded(opts.dataDir, storage, opts.checkpointThread, opts.log);
  const file = opts.url ? null : join(opts.dataDir, "brainbox.db");
  const database: Database = {
    db: drizzle(client, { schema }),
    client,
    location: opts.url ?? `file:${file}`,
    file,
    storage,
    changeVersion: () => client.changeVersion(),
    ping: () => client.ping(),
    close: () => client.close(),
  };
  databases.set(database.db, database);
  return database;
}

/**
 * The embedded file, through @libsql/client's file client. `timeout` is the busy timeout; libSQL turns
 * foreign keys on by default. One connection: the driver is synchronous, so more connections add no
 * parallelism, only lock waits (see the rule above). It reconnects by itself after SQLITE_BUSY (file-client.ts).
 */
function openEmbedded(dataDir: string, storage: StorageHealth, checkpointThread = false, log?: Logger): BrainboxClient {
  mkdirSync(dataDir, { recursive: true });
  return openFileClient(join(dataDir, "brainbox.db"), { timeoutMs: 5000, checkpointThread, log, storage });
}

/**
 * A libSQL server over HTTP: requests run concurrently (round trips, not CPU), and each has a deadline, so
 * a server that stops answering fails requests instead of stalling every query behind them. Its change
 * version trusts other replicas' writes to have waited at most REMOTE_CHANGE_WINDOW_MS (a server has no
 * cheap change signal).
 */
function openRemote(url: string, authToken: string | undefined, timeoutMs: number, storage: StorageHealth): BrainboxClient {
  const fetchWithDeadline = (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    return fetch(request, { signal: AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) });
  };
  const client = createClient({ url, authToken, fetch: fetchWithDeadline } as Parameters<typeof createClient>[0]);
  let window = Math.floor(Date.now() / REMOTE_CHANGE_WINDOW_MS);
  return withChangeVersion(client, {
    storage,
    location: url,
    othersWrote() {
      const now = Math.floor(Date.now() / REMOTE_CHANGE_WINDOW_MS);
      if (now === window) return false;
      window = now;
      return true;
    },
    ping: () => client.execute("SELECT 1").then(() => undefined),
  });
}

/** Applies pending migrations inside one write transaction, so two processes starting together are safe. */
export async function migrate(client: Client): Promise<string[]> {
  if (!(await isRemote(client))) {
    await client.execute("PRAGMA journal_mode=WAL");
    // NORMAL in WAL mode survives a process crash; only an OS crash may lose the last commits.
    await client.execute("PRAGMA synchronous=NORMAL");
  }
  await client.execute(
    "CREATE TABLE IF NOT EXISTS __drizzle_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)",
  );
  const tx = await client.transaction("write");
  try {
    const last = await tx.execute("SELECT max(created_at) AS last FROM __drizzle_migrations");
    const lastApplied = Number(last.rows[0]?.last ?? 0);
    const applied: string[] = [];
    for (const m of migrations) {
      if (m.when <= lastApplied) continue;
      for (const statement of m.statements) await tx.execute(statement);
      const hash = new Bun.CryptoHasher("sha256").update(m.statements.join("\n")).digest("hex");
      await tx.execute({ sql: "INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)", args: [hash, m.when] });
      applied.push(m.tag);
    }
    await tx.commit();
    return applied;
  } finally {
    tx.close();
  }
}

async function isRemote(client: Client): Promise<boolean> {
  return client.protocol !== "file";
}
