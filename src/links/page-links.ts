// The page_links table (graph edges) is re-derived from a page's markdown every time the markdown is
// written: these statements go into the same batch as the write. By difference: an edge the page keeps is
// neither deleted nor written again (a concept page rewritten for one new mention keeps most of its edges,
// and each one rewritten dirtied a page of the backlink index at a random place: 4% of an import's log).
import { ALWAYS, type Fragment, type Statement } from "../db/plain";
import { extractWikiLinks } from "./wiki-links";

export { runBatch, type Batchable, type Statement } from "../db/plain";

/**
 * `pageId` gives the page's id (a sub-select by slug, say); `onlyIf` guards both statements. `inserted`: the
 * page row was inserted in the same batch, so it has no edges to delete (a page's edges go with it).
 */
export function pageLinkStatements(brainId: string, pageId: Fragment, markdown: string, onlyIf: Fragment = ALWAYS, inserted = false): Statement[] {
  const targets = JSON.stringify(extractWikiLinks(markdown).slice(0, 500));
  const insert: Statement = {
    sql: `INSERT OR IGNORE INTO page_links (from_page_id, brain_id, to_slug)
        SELECT (${pageId.sql}), ?, value FROM json_each(?) WHERE (${pageId.sql}) IS NOT NULL AND ${onlyIf.sql}`,
    args: [...pageId.args, brainId, targets, ...pageId.args, ...onlyIf.args],
  };
  if (inserted) return [insert];
  return [
    {
      sql: `DELETE FROM page_links WHERE from_page_id = (${pageId.sql}) AND to_slug NOT IN (SELECT value FROM json_each(?)) AND ${onlyIf.sql}`,
      args: [...pageId.args, targets, ...onlyIf.args],
    },
    insert,
  ];
}

/**
 * A source page's new text with links added to `added` (the page's other links stay), unless its owner edited
 * it, or its text is no longer `read` (what the new text was made from). Its edges go only with the text. The
 * writers of added links read a page, then write it by id in a later transaction: meanwhile its source may be
 * written again (a job re-run after a crash), and SQLite may give the new page the old page's id (the highest
 * id freed is taken again). Written unguarded, an older text overwrote the new page, its link without the
 * edge the new page's write had not made; a guard that fails leaves the page to its own source's late links.
 */
export function linksAddedStatements(pageId: number, brainId: string, markdown: string, added: string[], read: string): Statement[] {
  return [
    { sql: "UPDATE pages SET markdown = ?, updated_at = ? WHERE id = ? AND edited = 0 AND markdown = ?", args: [markdown, Date.now(), pageId, read] },
    ...added.map((to) => ({
      sql: "INSERT OR IGNORE INTO page_links (from_page_id, brain_id, to_slug) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM pages WHERE id = ? AND markdown = ?)",
      args: [pageId, brainId, to, pageId, markdown],
    })),
  ];
}
