// Re-derives the pages of dirty concepts from their mentions: created when a concept earns a page,
// rewritten when its mentions change, removed when its last mention goes (unless the owner edited it,
// then only `source_changed` is set). Each concept costs a few index lookups, whatever the brain's size.
import { sql } from "drizzle-orm";
import type { Embedder } from "../ai/embedder";
import type { RootDb } from "../db/client";
import { conceptMarkdown, type MentionRow } from "./concept-page";
import { linkConceptsInline } from "../links/inline-links";
import { linksAddedStatements, pageLinkStatements, runBatch, type Batchable, type Statement } from "../links/page-links";
import { CONCEPT_PAGES, queryRows, stmt } from "../db/plain";
import { CENTRAL_SALIENCE } from "./resolve";
import { searchTextOf } from "../retrieval/search-text";
import { singular } from "../lib/singular";
import { timeSlicer } from "../lib/time-slice";

const DIRTY_BATCH = 200;
/**
 * Statements per refresh transaction (an updated concept is never split; a new one's inward links may go
 * first, its page at the end of the pass): big enough that a chunk pays a few commits and full-text flushes,
 * not one per concept; small enough that one synchronous write stays short (a chunk of 200 new concepts
 * linking into 50 pages each is 20k statements).
 */
const FLUSH_STATEMENTS = 400;
/** Mention rows read per concept (in insertion order): enough to fill the page's list from distinct sources. */
const MENTIONS_READ = 40;
/** A concept's mention rows that its page shows (?1 brain, ?2 concept), in insertion order. */
const MENTION_ROWS = `FROM concept_mentions m CROSS JOIN pages p ON p.brain_id = m.brain_id AND p.slug = m.page_slug
  WHERE m.brain_id = ?1 AND m.concept = ?2 LIMIT ${MENTIONS_READ}`;
const MAX_RELATED = 8;
/**
 * A related concept is named by at least this many of the concept's source pages: one shared page made
 * every concept of a small brain related to every other (a four-source brain's graph: 68 links among 11 pages).
 */
const MIN_SHARED_PAGES = 2;
/** Pages of other sources linked inward when a concept first earns its page. */
const MAX_INWARD_LINKS = 50;

export interface RefreshDeps {
  db: RootDb;
  embedder?: Embedder | null;
}

/** A caller of refreshAllDirtyConcepts, answered when the pass it joined ends. */
interface Caller {
  first?: () => Promise<unknown>;
  signal?: AbortSignal;
  resolve(): void;
  reject(error: unknown): void;
}

/** Per brain with a pass running: the callers of the pass that follows it. */
const refreshing = new Map<string, { next: Caller[] }>();

/**
 * Refreshes every dirty concept of a brain, one pass per brain at a time in this process: concurrent job
 * batches all finish with a refresh, and two passes reading the same dirty rows each rewrote the same pages.
 * Callers that come while a pass runs share the one pass that follows it (it covers every row marked before
 * it starts), instead of each waiting for the others' passes in turn. Each caller's `first` runs before that
 * pass, none while a pass runs (late links: nothing creates a concept page while it looks); a `first` that
 * fails fails its own caller only. A pass stops early only when every caller sharing it is aborted.
 */
export function refreshAllDirtyConcepts(deps: RefreshDeps, brainId: string, signal?: AbortSignal, first?: () => Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const caller: Caller = { first, signal, resolve, reject };
    const state = refreshing.get(brainId);
    if (state) {
      state.next.push(caller);
      return;
    }
    const mine = { next: [] as Caller[] };
    refreshing.set(brainId, mine);
    void runPasses(deps, brainId, mine, [caller]);
  });
}

async function runPasses(deps: RefreshDeps, brainId: string, state: { next: Caller[] }, callers: Caller[]) {
  while (callers.length > 0) {
    const failed = new Map<Caller, unknown>();
    try {
      for (const caller of callers) await caller.first?.().catch((e) => failed.set(caller, e));
      const aborted = () => callers.every((c) => c.signal?.aborted);
      while ((await refreshDirtyConcepts(deps, brainId)) > 0) if (aborted()) callers[0]!.signal!.throwIfAborted();
      for (const caller of callers) (failed.has(caller) ? caller.reject(failed.get(caller)) : caller.resolve());
    } catch (e) {
      for (const caller of callers) caller.reject(e);
    }
    callers = state.next.splice(0);
  }
  refreshing.delete(brainId);
}

/**
 * Refreshes up to DIRTY_BATCH dirty concepts of a brain; returns how many were handled. Their writes (and
 * the removal of their dirty marks) go in batches of FLUSH_STATEMENTS: a few commits and full-text flushes
 * per chunk, where a transaction per concept left a tiny FTS5 segment per concept page to merge (measured:
 * commits were the fastest-growing cost of an import, 0.3 → 1.3 ms per source from 1k to 10k sources).
 */
export async function refreshDirtyConcepts(deps: RefreshDeps, brainId: string): Promise<number> {
  const { db } = deps;
  const dirty = await queryRows<{ concept: string }>(db, "SELECT concept FROM concept_dirty WHERE brain_id = ? LIMIT ?", brainId, DIRTY_BATCH);
  if (dirty.length === 0) return 0;
  const chunk = newChunk();
  // Database calls resolve as microtasks: without a turn of the event loop now and then, a chunk would run
  // start to end while HTTP requests wait.
  const slice = timeSlicer();
  for (const { concept } of dirty) {
    await slice();
    const { outcome, mentions } = await planRefresh(deps, brainId, concept, chunk);
    // A concept's writes and its dirty mark's removal always go in the same transaction (a new page's: at the
    // end of the pass, with the page). The mark goes only if the mentions the plan read are still those: a
    // source written meanwhile (another job batch, between this read and the write) marked it again, which a
    // mark already there does not show, and its removal lost the second source's mention until some other
    // change (a concept named by two sources without its page: one 50k import in four).
    const clean = stmt(
      `DELETE FROM concept_dirty WHERE brain_id = ?1 AND concept = ?2 AND (SELECT count(*) FROM (SELECT 1 ${MENTION_ROWS})) = ?3`,
      brainId, concept, mentions,
    );
    if (outcome === "created") chunk.creating.get(concept)!.clean = clean;
    else chunk.statements.push(clean);
    if (chunk.statements.length + UPSERT_STATEMENTS * chunk.upserts.length >= FLUSH_STATEMENTS) await flush(deps, brainId, chunk);
  }
  await flush(deps, brainId, chunk, true);
  return dirty.length;
}

/** `last`: the end of the pass, where the pages it creates are written. */
async function flush(deps: RefreshDeps, brainId: string, chunk: Chunk, last = false) {
  if (last) await writeNewPages(deps.db, brainId, chunk);
  await runBatch(deps.db, [...chunk.statements, ...upsertStatements(brainId, chunk.upserts)]);
  chunk.statements = [];
  chunk.upserts = [];
  for (const page of chunk.created) await embedNewPage(deps, brainId, page.slug, page.title, page.markdown);
  chunk.created = [];
}

const newChunk = (): Chunk => ({ statements: [], upserts: [], markdownById: new Map(), created: [], creating: new Map(), linkedInto: new Map() });

/** The writes of one refresh pass, gathered to run in a few batches. */
interface Chunk {
  statements: Batchable[];
  /** Concept pages to write (created or rewritten), all in one insert at the flush (upsertStatements). */
  upserts: ConceptPage[];
  /** Source pages rewritten earlier in this chunk (inward links): later concepts link into the new text. */
  markdownById: Map<number, string>;
  /** Concept pages this chunk creates (to embed once written). */
  created: { slug: string; title: string; markdown: string }[];
  /**
   * Concepts that earned their page in this pass, written at its end (writeNewPages) with the removal of their
   * dirty marks (`clean`): by then every page the pass creates is known, so new pages name each other as
   * related without a second refresh of each (that second look was a third of an import's concept-page
   * writes at 20k-50k sources).
   */
  creating: Map<string, { title: string; mentions: MentionRow[]; clean?: Batchable }>;
  /** Source page slug → concepts of `creating` the pass links it to (those links may not be written yet). */
  linkedInto: Map<string, string[]>;
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
  const chunk = newChunk();
  const { outcome } = await planRefresh(deps, brainId, slug, chunk);
  await flush(deps, brainId, chunk);
  return outcome;
}

/** What the refresh of one concept does, and how many mention rows it was planned from. */
async function planRefresh(deps: RefreshDeps, brainId: string, slug: string, chunk: Chunk): Promise<{ outcome: Outcome; mentions: number }> {
  const rows = await queryRows<MentionRow & { weight: number }>(
    deps.db,
    `SELECT m.source_id AS sourceId, m.page_slug AS pageSlug, p.title AS pageTitle, m.surface, m.sentence, m.weight ${MENTION_ROWS}`,
    brainId,
    slug,
  );
  return { outcome: await planFrom(deps, brainId, slug, rows, chunk), mentions: rows.length };
}

async function planFrom(deps: RefreshDeps, brainId: string, slug: string, rows: (MentionRow & { weight: number })[], chunk: Chunk): Promise<Outcome> {
  const { db } = deps;
  const [existing] = await queryRows<PageRow>(db, "SELECT id, kind, title, markdown, edited FROM pages WHERE brain_id = ? AND slug = ?", brainId, slug);
  if (existing && existing.kind !== "concept") return "kept";
  const sources = new Set(rows.map((r) => r.sourceId));
  const earns = rows.length > 0 && (sources.size >= 2 || rows.some((r) => r.weight >= CENTRAL_SALIENCE));
  if (!earns) {
    if (!existing) return "kept";
    if (existing.edited) {
      chunk.statements.push(stmt("UPDATE pages SET source_changed = 1 WHERE id = ?", existing.id));
      return "kept";
    }
    chunk.statements.push(stmt("DELETE FROM pages WHERE id = ? AND edited = 0", existing.id));
    return "removed";
  }

  const title = conceptTitle(rows.map((r) => r.surface));
  if (!existing) {
    await linkInward(db, brainId, slug, rows, chunk);
    chunk.creating.set(slug, { title, mentions: rows });
    return "created";
  }
  const related = await relatedConcepts(db, brainId, slug, rows, chunk);
  const markdown = conceptMarkdown({ mentions: rows, related });
  if (existing.edited) {
    if (existing.markdown !== markdown) chunk.statements.push(stmt("UPDATE pages SET source_changed = 1 WHERE id = ?", existing.id));
    return "kept";
  }
  if (existing.markdown === markdown && existing.title === title) return "kept";
  chunk.upserts.push({ slug, title, markdown });
  return "updated";
}

/** The pages of the concepts this chunk creates, with their related concepts (new ones among them). */
async function writeNewPages(db: RootDb, brainId: string, chunk: Chunk) {
  for (const [slug, { title, mentions, clean }] of chunk.creating) {
    const markdown = conceptMarkdown({ mentions, related: await relatedConcepts(db, brainId, slug, mentions, chunk) });
    chunk.upserts.push({ slug, title, markdown });
    if (clean) chunk.statements.push(clean);
    chunk.created.push({ slug, title, markdown });
  }
  chunk.creating.clear();
  chunk.linkedInto.clear();
}

interface ConceptPage {
  slug: string;
  title: string;
  markdown: string;
}
/** Statements a concept page's write counts for, towards FLUSH_STATEMENTS (its share of the insert, its links). */
const UPSERT_STATEMENTS = 3;

/**
 * The concept pages' writes: ONE insert (or rewrite, unless the owner edited it) for all of them, then each
 * page's links. The full-text index writes its pending terms at the start of every statement that opens a
 * savepoint: an insert per page made a segment per page.
 */
function upsertStatements(brainId: string, upserts: ConceptPage[]): Statement[] {
  if (upserts.length === 0) return [];
  const rows = upserts.map((p) => [p.slug, p.title, p.markdown, searchTextOf(p.markdown)]);
  return [
    stmt(
      `INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown, search_text)
      SELECT ?, NULL, 'concept', j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3 FROM json_each(?) j WHERE true
      ON CONFLICT (brain_id, slug) DO UPDATE SET title = excluded.title, markdown = excluded.markdown, search_text = excluded.search_text,
        revision = revision + 1, updated_at = ?
      WHERE pages.kind = 'concept' AND pages.edited = 0`,
      brainId, JSON.stringify(rows), Date.now(),
    ),
    ...upserts.flatMap((p) =>
      pageLinkStatements(brainId, stmt(`SELECT id FROM pages ${CONCEPT_PAGES} WHERE brain_id = ? AND slug = ? AND kind = 'concept'`, brainId, p.slug), p.markdown),
    ),
  ];
}

/**
 * Concept pages linked from the source pages that name this concept (read through page_links, the graph's
 * edges: a few primary-key probes per page), the most shared first, with the pages this chunk creates and
 * the links it adds. Mentions are not indexed by page: that index was the third random-order insert per
 * mention row, the fastest-growing write of an import.
 */
async function relatedConcepts(db: RootDb, brainId: string, slug: string, mentions: MentionRow[], chunk: Chunk) {
  const pageSlugs = [...new Set(mentions.map((m) => m.pageSlug))].slice(0, 10);
  // Concepts this chunk links those pages to count once more below: the only ones read with a single shared
  // page (the others can never reach MIN_SHARED_PAGES, and each read one looks its title up).
  const linkedHere = [...new Set(pageSlugs.flatMap((page) => chunk.linkedInto.get(page) ?? []))];
  const linked = await queryRows<{ slug: string; n: number; title: string | null }>(
    db,
    // A note is never rewritten, so it links nothing: the concepts it names are its mention rows.
    `SELECT c.concept AS slug, c.n, p.title FROM (
      SELECT concept, COUNT(*) AS n FROM (
        SELECT s.id AS page, l.to_slug AS concept FROM json_each(?1) j
        CROSS JOIN pages s ON s.brain_id = ?2 AND s.slug = j.value
        CROSS JOIN page_links l ON l.from_page_id = s.id
        WHERE l.to_slug != ?3
        UNION
        SELECT s.id, m.concept FROM json_each(?1) j
        CROSS JOIN pages s ON s.brain_id = ?2 AND s.slug = j.value AND s.kind = 'note'
        CROSS JOIN concept_mentions m ON m.source_id = s.source_id
        WHERE m.concept != ?3
      ) GROUP BY concept HAVING n >= ${MIN_SHARED_PAGES} OR concept IN (SELECT value FROM json_each(?4)) ORDER BY n DESC LIMIT 40
    ) c LEFT JOIN pages p ${CONCEPT_PAGES} ON p.brain_id = ?2 AND p.slug = c.concept AND p.kind = 'concept'`,
    JSON.stringify(pageSlugs),
    brainId,
    slug,
    JSON.stringify(linkedHere),
  );
  const found = new Map<string, { slug: string; n: number; title: string }>();
  const add = (related: string, n: number, title: string | null | undefined) => {
    title ??= chunk.creating.get(related)?.title;
    if (related === slug || title === undefined || title === null) return;
    const known = found.get(related);
    if (known) known.n += n;
    else found.set(related, { slug: related, n, title });
  };
  for (const r of linked) add(r.slug, Number(r.n), r.title);
  for (const page of pageSlugs) for (const related of chunk.linkedInto.get(page) ?? []) add(related, 1, undefined);
  return [...found.values()]
    .filter((r) => r.n >= MIN_SHARED_PAGES)
    .sort((a, b) => b.n - a.n || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .slice(0, MAX_RELATED);
}

/** A concept that just earned its page: the source pages that name it (not notes, not edited) link to it. */
async function linkInward(db: RootDb, brainId: string, slug: string, mentions: MentionRow[], chunk: Chunk) {
  const surfaces = [...new Set(mentions.map((m) => m.surface))].sort((a, b) => b.length - a.length);
  const pageSlugs = [...new Set(mentions.map((m) => m.pageSlug))].slice(0, MAX_INWARD_LINKS);
  const targets = await queryRows<{ id: number; slug: string; markdown: string }>(
    db,
    `SELECT p.id, p.slug, p.markdown FROM json_each(?) j
    CROSS JOIN pages p ON p.brain_id = ? AND p.slug = j.value
    WHERE p.kind = 'source' AND p.edited = 0
      AND NOT EXISTS (SELECT 1 FROM page_links l WHERE l.from_page_id = p.id AND l.to_slug = ?)`,
    JSON.stringify(pageSlugs),
    brainId,
    slug,
  );
  for (const page of targets) {
    const current = chunk.markdownById.get(page.id) ?? page.markdown;
    const { markdown, linked } = linkConceptsInline(current, [{ slug, surfaces }]);
    if (linked.length === 0) continue;
    chunk.markdownById.set(page.id, markdown);
    chunk.statements.push(...linksAddedStatements(page.id, brainId, markdown, [slug], current));
    chunk.linkedInto.set(page.slug, [...(chunk.linkedInto.get(page.slug) ?? []), slug]);
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

/**
 * A concept page's title: its longest surface form ("Marie Curie" over "Curie"), a plural only when its
 * singular was never written ("data center" of "data center" and "data centers").
 */
export function conceptTitle(surfaces: string[]): string {
  const seen = new Set(surfaces);
  const singularSeen = (s: string) => {
    const words = s.split(" ");
    const one = singular(words.at(-1)!);
    return one !== words.at(-1) && seen.has([...words.slice(0, -1), one].join(" "));
  };
  const kept = [...seen].filter((s) => !singularSeen(s));
  return kept.sort((a, b) => b.length - a.length || a.localeCompare(b))[0]!;
}
