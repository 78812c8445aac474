import Database from "libsql";
import { findInwardLinks } from "../src/ingest/inward-links";
const db = new Database(process.argv[2]!, { readonly: true } as any);
const stmts = new Map<string, any>();
let sqlMs = 0, queries = 0, rowsRead = 0;
const read = (sql: string, args: any[]) => {
  let s = stmts.get(sql); if (!s) stmts.set(sql, (s = db.prepare(sql)));
  const t = performance.now(); const r = s.all(args); sqlMs += performance.now() - t; queries++; rowsRead += r.length; return r;
};
const brain = (db.prepare("SELECT id FROM brains LIMIT 1").all([]) as any[])[0].id;
const pages = db.prepare("SELECT p.slug, p.title, p.source_id AS sourceId FROM pages p WHERE p.kind = 'source' ORDER BY p.id DESC LIMIT 2000").all([]) as any[];
let links = 0; const t0 = performance.now();
for (const p of pages) { db.exec("BEGIN"); links += (await findInwardLinks(read, brain, p.sourceId, [{ slug: p.slug, title: p.title }])).length; db.exec("COMMIT"); }
const total = performance.now() - t0;
console.log(`pages ${pages.length} total ${(total / pages.length).toFixed(3)} ms/page, sql ${(sqlMs / pages.length).toFixed(3)}, queries/page ${(queries / pages.length).toFixed(2)}, rows/page ${(rowsRead / pages.length).toFixed(1)}, links ${links}`);
