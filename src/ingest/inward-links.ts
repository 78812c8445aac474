// Which pages of a brain mention a new page's title, so they can list it on their `Related:` line? Reads
// only (a full-text query per title, then the phrase confirmed on each candidate's text), through a plain
// reader, so they run on an extraction thread's read-only connection after the page is committed; the thread
// that writes only applies the links (applyInwardLinks in jobs/ingest-source/write-pages.ts).
// The query uses CROSS JOIN so SQLite drives from the full-text match; a plain JOIN let the planner scan the
// brain's pages and run the MATCH once per page (measured: 18 ms per new page at 300 pages). It asks for
// pages holding every content word of the title (stopwords dropped), not the phrase: the phrase made FTS5
// walk the position lists of words like "the" in every segment, a cost growing with the brain (0.2 → 1 ms
// per page from 1k to 10k sources; the AND 6× cheaper on the same index).
import type { ReadRows } from "../db/read-rows";
import { queryTerms } from "../retrieval/terms";
import { linkRelatedPages } from "./wiki-links";

/** Pages of other sources read per new page. */
const INWARD_CANDIDATES = 50;

/** Page `from` (of another source) names the title of the new page `to`. */
export interface InwardLink {
  from: number;
  to: string;
}

/** Source pages of the brain, not of `sourceId`, that name one of `fresh`'s titles as a phrase and do not link it yet. */
export async function findInwardLinks(read: ReadRows, brainId: string, sourceId: string, fresh: { slug: string; title: string }[]): Promise<InwardLink[]> {
  const links: InwardLink[] = [];
  for (const page of fresh) {
    const words = page.title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    if (words.length < 2 && page.title.length < 5) continue;
    const terms = queryTerms(page.title);
    const match = terms.length > 0 ? `body: (${terms.map((t) => `"${t}"`).join(" AND ")})` : `body: "${words.join(" ")}"`;
    const mentions = (await read(
      `SELECT p.id, p.slug, p.title, p.markdown FROM pages_fts f CROSS JOIN pages p ON p.id = f.rowid
       WHERE pages_fts MATCH ? AND p.brain_id = ? AND p.source_id != ? AND p.kind = 'source' AND p.edited = 0 LIMIT ${INWARD_CANDIDATES}`,
      [match, brainId, sourceId],
    )) as { id: number; slug: string; title: string; markdown: string }[];
    for (const other of mentions) {
      const confirmed = linkRelatedPages([other, { ...page, markdown: "" }]).get(other.slug) ?? [];
      if (confirmed.includes(page.slug) && !relatedLinksOf(other.markdown).includes(page.slug)) links.push({ from: Number(other.id), to: page.slug });
    }
  }
  return links;
}

/** The slugs on a page's `Related:` line. */
export function relatedLinksOf(markdown: string): string[] {
  return (/^Related: (.*)$/m.exec(markdown)?.[1] ?? "").match(/\[\[([^\]]+)\]\]/g)?.map((l) => l.slice(2, -2)) ?? [];
}
