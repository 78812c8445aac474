// A libSQL client that tells when the database may have changed (`changeVersion`), so callers can keep what
// they read (valid API keys, the brains list) until then. The file client and the remote client both go
// through it: every write made through a client of this process counts at once, once it is done; writes of
// other processes or replicas are noticed by `othersWrote` (SQLite's data_version for the file, a time window
// for a remote server).
import type { Client, InArgs, InStatement, ResultSet, Transaction, TransactionMode } from "@libsql/client";
import { kindOf, type StatementKind } from "./statements";
import { keepRecent } from "../lib/recent-map";
import { isStorageFull } from "../lib/db-errors";
import type { StorageHealth } from "../lib/storage-health";

export type BrainboxClient = Client & {
  /** A number that changes whenever the database may have changed; never throws. */
  changeVersion(): number;
  /** Resolves when the database can answer (health). */
  ping(): Promise<void>;
};

interface ChangeVersion {
  value: number;
}
/** Shared by the clients of one database in this process, so replicas in one process see each other's writes at once. */
const versions = new Map<string, ChangeVersion>();

/** Distinct SQL texts whose kind is kept (drizzle's are parameterised, so few). */
const KINDS_KEPT = 500;
const kinds = new Map<string, StatementKind>();
function kindOfCached(sql: string): StatementKind {
  let kind = kinds.get(sql);
  if (kind === undefined) keepRecent(kinds, sql, (kind = kindOf(sql)), KINDS_KEPT);
  return kind;
}

type Batched = InStatement | [string, InArgs?];

/** `execute` with either of its forms, on a client or a transaction. */
export function executeOn(on: Pick<Client, "execute"> | Transaction, stmt: InStatement | string, args?: InArgs): Promise<ResultSet> {
  return typeof stmt === "string" && args !== undefined ? (on as Client).execute(stmt, args) : on.execute(stmt);
}
const sqlOf = (s: Batched) => (typeof s === "string" ? s : Array.isArray(s) ? s[0] : s.sql);

/** Whether a statement that succeeded may have changed the database: a `read` never, a `dml` when it touched a row. */
function changedBy(sql: string, result: ResultSet): boolean {
  const kind = kindOfCached(sql);
  if (kind === "read") return false;
  return kind === "other" || result.rowsAffected > 0 || result.rows.length > 0;
}

export function withChangeVersion(
  client: Client,
  opts: { location: string; othersWrote: () => boolean; ping: () => Promise<void>; onClose?: () => void; storage?: StorageHealth },
): BrainboxClient {
  let version = versions.get(opts.location);
  if (!version) versions.set(opts.location, (version = { value: 0 }));
  const shared = version;
  let openTransactions = 0;
  const bump = () => void shared.value++;
  /** A write also tells whether it found space (what /api/health reports). */
  const failed = (error: unknown) => {
    bump();
    if (opts.storage && isStorageFull(error)) opts.storage.full((error as Error).message);
    throw error;
  };
  /** Counts the call's writes once it is done; a failed call may have written part of its work: it counts. */
  const counted = <R>(work: Promise<R>, changed: (result: R) => boolean): Promise<R> =>
    work.then((result) => {
      if (changed(result)) {
        bump();
        opts.storage?.wrote();
      }
      return result;
    }, failed);

  const countedTransaction = (tx: Transaction): Transaction => {
    openTransactions++;
    let open = true;
    const settle = () => {
      if (!open) return;
      open = false;
      openTransactions--;
      bump();
    };
    return {
      execute: (stmt: InStatement | string, args?: InArgs) => executeOn(tx, stmt, args).catch(failed),
      batch: (stmts: InStatement[]) => tx.batch(stmts).catch(failed),
      executeMultiple: (sql: string) => tx.executeMultiple(sql).catch(failed),
      rollback: () => tx.rollback().finally(settle),
      commit: () =>
        tx
          .commit()
          .then(() => opts.storage?.wrote(), failed)
          .finally(settle),
      close() {
        try {
          tx.close();
        } finally {
          settle();
        }
      },
      get closed() {
        return tx.closed;
      },
    } as Transaction;
  };

  return {
    get protocol() {
      return client.protocol;
    },
    get closed() {
      return client.closed;
    },
    changeVersion() {
      // While a transaction is open its writes are not committed yet: report a change.
      if (openTransactions > 0) return ++shared.value;
      if (opts.othersWrote()) bump();
      return shared.value;
    },
    ping: opts.ping,
    execute(stmt: InStatement | string, args?: InArgs) {
      const sql = typeof stmt === "string" ? stmt : stmt.sql;
      return counted(executeOn(client, stmt, args), (result) => changedBy(sql, result));
    },
    batch(stmts: Batched[], mode?: TransactionMode) {
      return counted(client.batch(stmts as InStatement[], mode), (results) => results.some((r, i) => changedBy(sqlOf(stmts[i]!), r)));
    },
    migrate(stmts: InStatement[]) {
      return counted(client.migrate(stmts), () => true);
    },
    executeMultiple(sql: string) {
      return counted(client.executeMultiple(sql), () => true);
    },
    async transaction(mode?: TransactionMode) {
      return countedTransaction(await client.transaction(mode));
    },
    sync: () => client.sync(),
    reconnect() {
      bump();
      return client.reconnect();
    },
    close() {
      try {
        client.close();
      } finally {
        opts.onClose?.();
        bump();
      }
    },
  } as BrainboxClient;
}
