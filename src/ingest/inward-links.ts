// Which pages of a brain mention a new page's title, so they can list it on their `Related:` line? Reads
// only (a full-text query per title, then the phrase confirmed on each candidate's text), through a plain
// reader, so they run on an extraction thread's read-only connection after the page is committed; the thread
// that writes only applies the links (applyInwardLinks in jobs/ingest-source/write-pages.ts).
// The query uses CROSS JOIN so SQLite drives from the full-text match; a plain JOIN let the planner scan the
// brain's pages and run the MATCH once per page (measured: 18 ms per new page at 300 pages). It asks for
// pages holding the title's longest content words (stopwords dropped), not the phrase: the phrase made FTS5
// walk the position lists of words like "the" in every segment, a cost growing with the brain (0.2 → 1 ms
// per page from 1k to 10k sources; the AND 6× cheaper on the same index).
import type { ReadRows } from "../db/read-rows";
import { queryTerms } from "../retrieval/terms";
import { linkRelatedPages, linkTargetsOf } from "./wiki-links";

/** Pages of other sources read per new page. */
const INWARD_CANDIDATES = 50;
/** Title terms the first full-text query asks for (longestTerms). */
const MATCH_TERMS = 3;

/** Page `from` (of another source) names `title`, the title of the new page `to`. */
export interface InwardLink {
  from: number;
  to: string;
  title: string;
}

/** Source pages of the brain, not of `sourceId`, that name one of `fresh`'s titles as a phrase and do not link it yet. */
export async function findInwardLinks(read: ReadRows, brainId: string, sourceId: string, fresh: { slug: string; title: string }[]): Promise<InwardLink[]> {
  const links: InwardLink[] = [];
  for (const page of fresh) {
    const words = page.title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    if (words.length < 2 && page.title.length < 5) continue;
    const terms = queryTerms(page.title);
    const candidates = (asked: string[]) =>
      read(
        `SELECT p.id, p.slug, p.title, p.markdown FROM pages_fts f CROSS JOIN pages p ON p.id = f.rowid
         WHERE pages_fts MATCH ? AND p.brain_id = ? AND p.source_id != ? AND p.kind = 'source' AND p.edited = 0 LIMIT ${INWARD_CANDIDATES}`,
        [asked.length > 0 ? `body: (${asked.map((t) => `"${t}"`).join(" AND ")})` : `body: "${words.join(" ")}"`, brainId, sourceId],
      ) as Promise<{ id: number; slug: string; title: string; markdown: string }[]>;
    // The longest terms first: their pages hold every page holding all of them. Only when that finds a full
    // list (pages beyond it might be missed) are all the terms asked for.
    const selective = longestTerms(terms);
    let mentions = await candidates(selective);
    if (mentions.length === INWARD_CANDIDATES && selective.length < terms.length) mentions = await candidates(terms);
    for (const other of mentions) {
      const confirmed = linkRelatedPages([other, { ...page, markdown: "" }]).get(other.slug) ?? [];
      if (confirmed.includes(page.slug) && !linkTargetsOf(other.markdown).includes(page.slug)) links.push({ from: Number(other.id), to: page.slug, title: page.title });
    }
  }
  return links;
}

/**
 * A title's longest terms, at most MATCH_TERMS (long words are the rare ones). The full-text query looks each
 * term up in every segment of the index, a cost that grows with the brain: with all the terms of a long title
 * it was the fastest-growing read of an import (0.24 → 0.55 ms a source from 1k to 30k sources).
 */
function longestTerms(terms: string[]): string[] {
  return terms.length <= MATCH_TERMS ? terms : [...terms].sort((a, b) => b.length - a.length).slice(0, MATCH_TERMS);
}
