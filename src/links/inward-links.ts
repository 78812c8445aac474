// Which pages of a brain mention a new page's title, so they can link to it? Reads
// only (a full-text query per title, then the phrase confirmed on each candidate's text), through a plain
// reader, so they run on an extraction thread's read-only connection after the page is committed; the thread
// that writes only applies the links (applyInwardLinks in jobs/ingest-source/write-pages.ts).
// The query uses CROSS JOIN so SQLite drives from the full-text match; a plain JOIN let the planner scan the
// brain's pages and run the MATCH once per page (measured: 18 ms per new page at 300 pages). It asks for
// pages holding the title's longest content words (stopwords dropped), not the phrase: the phrase made FTS5
// walk the position lists of words like "the" in every segment, a cost growing with the brain (0.2 → 1 ms
// per page from 1k to 10k sources; the AND 6× cheaper on the same index). With `pairs` (body-bigrams.ts) a
// title no other page can name is ruled out without the search.
import type { ReadRows } from "../db/read-rows";
import type { BodyBigrams } from "./body-bigrams";
import { queryTerms } from "../retrieval/terms";
import type { TitleIndex } from "./title-index";
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

/**
 * Source pages of the brain, not of `sourceId`, that name one of `fresh`'s titles as a phrase and do not link
 * it yet. `pairs`: the brain's word pairs, read in the same read transaction as the search.
 */
export async function findInwardLinks(read: ReadRows, brainId: string, sourceId: string, fresh: { slug: string; title: string }[], pairs?: BodyBigrams): Promise<InwardLink[]> {
  const links: InwardLink[] = [];
  const named = fresh.length && pairs ? await pairs.outside(brainId, sourceId) : () => true;
  for (const page of fresh) {
    const words = page.title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    if (words.length < 2 && page.title.length < 5) continue;
    if (!named(page.title)) continue;
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
 * The links a new source's pages could not get while it was prepared, found once they are written: pages of
 * the brain naming their titles (findInwardLinks), and, when `outwardSeen` is given (the last page id its
 * outward links looked at), the titles of pages written since that its own pages name. Two sources prepared
 * at the same time (concurrent job batches) otherwise never linked each other: each looked for the other's
 * title before it was written. `titles` reads the pages written since its last look first.
 */
export async function findLateLinks(
  read: ReadRows,
  titles: TitleIndex,
  brainId: string,
  sourceId: string,
  pages: { slug: string; title: string; markdown?: string }[],
  outwardSeen?: number,
  pairs?: BodyBigrams,
): Promise<InwardLink[]> {
  const links = await findInwardLinks(read, brainId, sourceId, pages, pairs);
  if (outwardSeen === undefined || pages.length === 0) return links;
  titles.touch();
  const bodies = pages.map((p) => ({ ...p, markdown: p.markdown ?? "" }));
  const late = await titles.candidatesAfter(brainId, sourceId, bodies.map((p) => p.markdown), outwardSeen);
  if (late.length === 0) return links;
  const lateSlugs = new Set(late.map((t) => t.slug));
  const related = linkRelatedPages([...bodies, ...late.map((t) => ({ ...t, markdown: "" }))]);
  const ids = (await read(`SELECT id, slug FROM pages WHERE source_id = ? AND slug IN (SELECT value FROM json_each(?))`, [
    sourceId,
    JSON.stringify(pages.map((p) => p.slug)),
  ])) as { id: number; slug: string }[];
  const idOf = new Map(ids.map((r) => [r.slug, Number(r.id)]));
  const titleOf = new Map(late.map((t) => [t.slug, t.title]));
  for (const page of bodies) {
    const from = idOf.get(page.slug);
    if (from === undefined) continue;
    for (const to of related.get(page.slug) ?? []) if (lateSlugs.has(to) && !linkTargetsOf(page.markdown).includes(to)) links.push({ from, to, title: titleOf.get(to)! });
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
