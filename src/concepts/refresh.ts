// Re-derives the pages of dirty concepts from their mentions: created when a concept earns a page,
// rewritten when its mentions change, removed when its last mention goes (unless the owner edited it,
// then only `source_changed` is set). Each concept costs a few index lookups, whatever the brain's size.
import { sql } from "drizzle-orm";
import type { Embedder } from "../ai/embedder";
import type { RootDb } from "../db/client";
import { conceptMarkdown, type MentionRow } from "./concept-page";
import { linkConceptsInline } from "./inline-links";
import { pageLinkStatements, runBatch, type Statement } from "./page-links";
import { CENTRAL_SALIENCE } from "./resolve";
import { searchTextOf } from "../retrieval/search-text";

const DIRTY_BATCH = 200;
/**
 * Statements per refresh transaction (a concept is never split): big enough that a chunk pays a few commits
 * and full-text flushes, not one per concept; small enough that one synchronous write stays short (a chunk of
 * 200 new concepts linking into 50 pages each is 20k statements).
 */
const FLUSH_STATEMENTS = 400;
/** Mention rows read per concept (in insertion order): enough to fill the page's list from distinct sources. */
const MENTIONS_READ = 40;
const MAX_RELATED = 8;
/** Pages of other sources linked inward when a concept first earns its page. */
const MAX_INWARD_LINKS = 50;

export interface RefreshDeps {
  db: RootDb;
  embedder?: Embedder | null;
}

const running = new Map<string, Promise<void>>();

/**
 * Refreshes every dirty concept of a brain, one caller per brain at a time in this process: concurrent job
 * batches all finish with a refresh, and two passes reading the same dirty rows each rewrote the same pages
 * (a chunk's dirty marks go only when its batch is written). A caller that finds one running waits for it,
 * then runs its own pass, so rows marked meanwhile are never left behind. `first` runs inside the lock
 * before the pass (late links: nothing creates a concept page while it looks).
 */
export async function refreshAllDirtyConcepts(deps: RefreshDeps, brainId: string, signal?: AbortSignal, first?: () => Promise<unknown>): Promise<void> {
  const previous = running.get(brainId);
  const mine = (async () => {
    await previous?.catch(() => undefined);
    await first?.();
    while ((await refreshDirtyConcepts(deps, brainId)) > 0) signal?.throwIfAborted();
  })();
  running.set(brainId, mine);
  try {
    await mine;
  } finally {
    if (running.get(brainId) === mine) running.delete(brainId);
  }
}

/**
 * Refreshes up to DIRTY_BATCH dirty concepts of a brain; returns how many were handled. Their writes (and
 * the removal of their dirty marks) go in batches of FLUSH_STATEMENTS: a few commits and full-text flushes
 * per chunk, where a transaction per concept left a tiny FTS5 segment per concept page to merge (measured:
 * commits were the fastest-growing cost of an import, 0.3 → 1.3 ms per source from 1k to 10k sources).
 */
export async function refreshDirtyConcepts(deps: RefreshDeps, brainId: string): Promise<number> {
  const { db } = deps;
  const dirty = await db.all<{ concept: string }>(sql`SELECT concept FROM concept_dirty WHERE brain_id = ${brainId} LIMIT ${DIRTY_BATCH}`);
  if (dirty.length === 0) return 0;
  const chunk: Chunk = { statements: [], markdownById: new Map(), created: [] };
  for (const { concept } of dirty) {
    // Database calls resolve as microtasks: without a turn of the event loop, a chunk would run start to end
    // while HTTP requests wait.
    await new Promise((resolve) => setImmediate(resolve));
    const outcome = await planRefresh(deps, brainId, concept, chunk);
    chunk.statements.push(db.run(sql`DELETE FROM concept_dirty WHERE brain_id = ${brainId} AND concept = ${concept}`));
    // A page created in this pass cannot name as related the pages created beside it (not written yet, nor
    // linked into their source pages): one more look once they are, which creates nothing, so it ends there.
    if (outcome === "created")
      chunk.statements.push(db.run(sql`INSERT OR IGNORE INTO concept_dirty (brain_id, concept) VALUES (${brainId}, ${concept})`));
    // A concept's writes and its dirty mark's removal always go in the same transaction.
    if (chunk.statements.length >= FLUSH_STATEMENTS) await flush(deps, brainId, chunk);
  }
  await flush(deps, brainId, chunk);
  return dirty.length;
}

async function flush(deps: RefreshDeps, brainId: string, chunk: Chunk) {
  await runBatch(deps.db, chunk.statements);
  chunk.statements = [];
  for (const page of chunk.created) await embedNewPage(deps, brainId, page.slug, page.title, page.markdown);
  chunk.created = [];
}

/** The writes of one refresh pass, gathered to run as one batch. */
interface Chunk {
  statements: Statement[];
  /** Source pages rewritten earlier in this chunk (inward links): later concepts link into the new text. */
  markdownById: Map<number, string>;
  /** Concept pages this chunk creates (to embed once written). */
  created: { slug: string; title: string; markdown: string }[];
}

interface PageRow {
  id: number;
  kind: string;
  title: string;
  markdown: string;
  edited: number;
}

type Outcome = "created" | "updated" | "removed" | "kept";

/** Re-derives one concept's page now (its own batch). */
export async function refreshConcept(deps: RefreshDeps, brainId: string, slug: string): Promise<Outcome> {
  const chunk: Chunk = { statements: [], markdownById: new Map(), created: [] };
  const outcome = await planRefresh(deps, brainId, slug, chunk);
  await flush(deps, brainId, chunk);
  return outcome;
}

async function planRefresh(deps: RefreshDeps, brainId: string, slug: string, chunk: Chunk): Promise<Outcome> {
  const { db } = deps;
  const rows = await db.all<MentionRow & { weight: number }>(sql`
    SELECT m.source_id AS sourceId, m.page_slug AS pageSlug, p.title AS pageTitle, m.surface, m.sentence, m.weight
    FROM concept_mentions m CROSS JOIN pages p ON p.brain_id = m.brain_id AND p.slug = m.page_slug
    WHERE m.brain_id = ${brainId} AND m.concept = ${slug} LIMIT ${MENTIONS_READ}`);
  const [existing] = await db.all<PageRow>(sql`SELECT id, kind, title, markdown, edited FROM pages WHERE brain_id = ${brainId} AND slug = ${slug}`);
  if (existing && existing.kind !== "concept") return "kept";
  const sources = new Set(rows.map((r) => r.sourceId));
  const earns = rows.length > 0 && (sources.size >= 2 || rows.some((r) => r.weight >= CENTRAL_SALIENCE));
  if (!earns) {
    if (!existing) return "kept";
    if (existing.edited) {
      chunk.statements.push(db.run(sql`UPDATE pages SET source_changed = 1 WHERE id = ${existing.id}`));
      return "kept";
    }
    chunk.statements.push(db.run(sql`DELETE FROM pages WHERE id = ${existing.id} AND edited = 0`));
    return "removed";
  }

  const title = [...rows.map((r) => r.surface)].sort((a, b) => b.length - a.length || a.localeCompare(b))[0]!;
  const related = await relatedConcepts(db, brainId, slug, rows);
  const markdown = conceptMarkdown({ mentions: rows, related });
  if (existing?.edited) {
    if (existing.markdown !== markdown) chunk.statements.push(db.run(sql`UPDATE pages SET source_changed = 1 WHERE id = ${existing.id}`));
    return "kept";
  }
  if (existing && existing.markdown === markdown && existing.title === title) return "kept";

  const pageId = sql`SELECT id FROM pages WHERE brain_id = ${brainId} AND slug = ${slug} AND kind = 'concept'`;
  chunk.statements.push(
    db.run(sql`INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown, search_text)
      VALUES (${brainId}, NULL, 'concept', ${slug}, ${title}, ${markdown}, ${searchTextOf(markdown)})
      ON CONFLICT (brain_id, slug) DO UPDATE SET title = excluded.title, markdown = excluded.markdown, search_text = excluded.search_text,
        revision = revision + 1, updated_at = ${Date.now()}
      WHERE pages.kind = 'concept' AND pages.edited = 0`),
    ...pageLinkStatements(db, brainId, pageId, markdown),
  );
  if (!existing) {
    await linkInward(db, brainId, slug, rows, chunk);
    chunk.created.push({ slug, title, markdown });
  }
  return existing ? "updated" : "created";
}

/**
 * Concept pages linked from the source pages that name this concept (read through page_links, the graph's
 * edges: a few primary-key probes per page). Mentions are not indexed by page: that index was the third
 * random-order insert per mention row, the fastest-growing write of an import.
 */
async function relatedConcepts(db: RootDb, brainId: string, slug: string, mentions: MentionRow[]) {
  const pageSlugs = [...new Set(mentions.map((m) => m.pageSlug))].slice(0, 10);
  return db.all<{ slug: string; title: string }>(sql`
    SELECT p.slug, p.title FROM (
      SELECT l.to_slug AS concept, COUNT(*) AS n FROM json_each(${JSON.stringify(pageSlugs)}) j
      CROSS JOIN pages s ON s.brain_id = ${brainId} AND s.slug = j.value
      CROSS JOIN page_links l ON l.from_page_id = s.id
      WHERE l.to_slug != ${slug}
      GROUP BY l.to_slug ORDER BY n DESC LIMIT 40
    ) c CROSS JOIN pages p ON p.brain_id = ${brainId} AND p.slug = c.concept AND p.kind = 'concept'
    ORDER BY c.n DESC, p.slug LIMIT ${MAX_RELATED}`);
}

/** A concept that just earned its page: the source pages that name it (not notes, not edited) link to it. */
async function linkInward(db: RootDb, brainId: string, slug: string, mentions: MentionRow[], chunk: Chunk) {
  const surfaces = [...new Set(mentions.map((m) => m.surface))].sort((a, b) => b.length - a.length);
  const pageSlugs = [...new Set(mentions.map((m) => m.pageSlug))].slice(0, MAX_INWARD_LINKS);
  const targets = await db.all<{ id: number; markdown: string }>(sql`
    SELECT p.id, p.markdown FROM json_each(${JSON.stringify(pageSlugs)}) j
    CROSS JOIN pages p ON p.brain_id = ${brainId} AND p.slug = j.value
    WHERE p.kind = 'source' AND p.edited = 0
      AND NOT EXISTS (SELECT 1 FROM page_links l WHERE l.from_page_id = p.id AND l.to_slug = ${slug})`);
  for (const page of targets) {
    const current = chunk.markdownById.get(page.id) ?? page.markdown;
    const { markdown, linked } = linkConceptsInline(current, [{ slug, surfaces }]);
    if (linked.length === 0) continue;
    chunk.markdownById.set(page.id, markdown);
    chunk.statements.push(db.run(sql`UPDATE pages SET markdown = ${markdown}, updated_at = ${Date.now()} WHERE id = ${page.id} AND edited = 0`));
    chunk.statements.push(db.run(sql`INSERT OR IGNORE INTO page_links (from_page_id, brain_id, to_slug) VALUES (${page.id}, ${brainId}, ${slug})`));
  }
}

async function embedNewPage(deps: RefreshDeps, brainId: string, slug: string, title: string, markdown: string) {
  const embedder = deps.embedder;
  if (!embedder) return;
  try {
    const [vector] = await embedder.embed([`${title}\n\n${markdown}`]);
    if (!vector) return;
    await deps.db.run(sql`INSERT INTO page_vectors (page_id, brain_id, model, embedding)
      SELECT id, brain_id, ${embedder.model}, vector32(${JSON.stringify(Array.from(vector))}) FROM pages WHERE brain_id = ${brainId} AND slug = ${slug}
      ON CONFLICT (page_id, model) DO NOTHING`);
  } catch {
    // The background embed-pages job gives every page without a vector one later.
  }
}
