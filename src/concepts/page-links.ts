// The page_links table (graph edges) is re-derived from a page's markdown every time the markdown is
// written: these statements go into the same batch as the write.
import { sql, type SQL } from "drizzle-orm";
import type { RootDb } from "../db/client";
import { extractWikiLinks } from "../ingest/wiki-links";

/** `pageId` is a SQL expression giving the page's id (a literal, or a sub-select by slug). */
export function pageLinkStatements(db: RootDb, brainId: string, pageId: SQL, markdown: string, onlyIf: SQL = sql`1`) {
  const targets = JSON.stringify(extractWikiLinks(markdown).slice(0, 500));
  return [
    db.run(sql`DELETE FROM page_links WHERE from_page_id = (${pageId}) AND ${onlyIf}`),
    db.run(sql`INSERT OR IGNORE INTO page_links (from_page_id, brain_id, to_slug)
      SELECT (${pageId}), ${brainId}, value FROM json_each(${targets}) WHERE (${pageId}) IS NOT NULL AND ${onlyIf}`),
  ];
}

export type Statement = ReturnType<RootDb["run"]>;
export const runBatch = (db: RootDb, statements: Statement[]) =>
  statements.length ? db.batch(statements as unknown as Parameters<RootDb["batch"]>[0]) : Promise.resolve([]);
