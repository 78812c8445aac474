// The snapshot thread (see snapshot.ts): its own connection copies the database into a new file with
// VACUUM INTO. A read transaction in WAL mode: writers go on while it copies, and the copy is one
// consistent state of the database.
import Database from "libsql";

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ source: string; dest: string }>) => {
  const { source, dest } = event.data;
  let db: InstanceType<typeof Database> | null = null;
  try {
    db = new Database(source, { timeout: 5000 } as ConstructorParameters<typeof Database>[1]);
    db.prepare("VACUUM INTO ?").run([dest]);
    db.close();
    db = null;
    // The schema of the copy, not of the live file: a migration between the two would not be in it.
    const copy = new Database(dest, { readonly: true } as ConstructorParameters<typeof Database>[1]);
    const row = copy.prepare("SELECT max(created_at) AS last FROM __drizzle_migrations").get([]) as { last: number | null } | undefined;
    copy.close();
    self.postMessage({ ok: true, lastMigration: Number(row?.last ?? 0) });
  } catch (e) {
    try {
      db?.close();
    } catch {
      // the connection is gone with the error
    }
    self.postMessage({ ok: false, error: (e as Error)?.message ?? String(e) });
  }
};
