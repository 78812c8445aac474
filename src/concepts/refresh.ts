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
/** Mention rows read per concept (in insertion order): enough to fill the page's list from distinct sources. */
const MENTIONS_READ = 40;
const MAX_RELATED = 8;
/** Pages of other sources linked inward when a concept first earns its page. */
const MAX_INWARD_LINKS = 50;

export interface RefreshDeps {
  db: RootDb;
  embedder?: Embedder | null;
}

/** Refreshes up to DIRTY_BATCH dirty concepts of a brain; returns how many were handled. */
export async function refreshDirtyConcepts(deps: RefreshDeps, brainId: string): Promise<number> {
  const { db } = deps;
  const dirty = await db.all<{ concept: string }>(sql`SELECT concept FROM concept_dirty WHERE brain_id = ${brainId} LIMIT ${DIRTY_BATCH}`);
  for (const { concept } of dirty) {
    await refreshConcept(deps, brainId, concept);
    await db.run(sql`DELETE FROM concept_dirty WHERE brain_id = ${brainId} AND concept = ${concept}`);
  }
  return dirty.length;
}

interface PageRow {
  id: number;
  kind: string;
  title: string;
  markdown: string;
  edited: number;
}

export async function refreshConcept(deps: RefreshDeps, brainId: string, slug: string): Promise<"created" | "updated" | "removed" | "kept"> {
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
      await db.run(sql`UPDATE pages SET source_changed = 1 WHERE id = ${existing.id}`);
      return "kept";
    }
    await db.run(sql`DELETE FROM pages WHERE id = ${existing.id} AND edited = 0`);
    return "removed";
  }

  const title = [...rows.map((r) => r.surface)].sort((a, b) => b.length - a.length || a.localeCompare(b))[0]!;
  const related = await relatedConcepts(db, brainId, slug, rows);
  const markdown = conceptMarkdown({ mentions: rows, related });
  if (existing?.edited) {
    if (existing.markdown !== markdown) await db.run(sql`UPDATE pages SET source_changed = 1 WHERE id = ${existing.id}`);
    return "kept";
  }
  if (existing && existing.markdown === markdown && existing.title === title) return "kept";

  const pageId = sql`SELECT id FROM pages WHERE brain_id = ${brainId} AND slug = ${slug} AND kind = 'concept'`;
  await runBatch(db, [
    db.run(sql`INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown, search_text)
      VALUES (${brainId}, NULL, 'concept', ${slug}, ${title}, ${markdown}, ${searchTextOf(markdown)})
      ON CONFLICT (brain_id, slug) DO UPDATE SET title = excluded.title, markdown = excluded.markdown, search_text = excluded.search_text,
        revision = revision + 1, updated_at = ${Date.now()}
      WHERE pages.kind = 'concept' AND pages.edited = 0`),
    ...pageLinkStatements(db, brainId, pageId, markdown),
  ]);
  if (!existing) {
    await linkInward(db, brainId, slug, rows);
    await embedNewPage(deps, brainId, slug, title, markdown);
  }
  return existing ? "updated" : "created";
}

/** Concepts named on the same source pages, that have pages themselves. */
async function relatedConcepts(db: RootDb, brainId: string, slug: string, mentions: MentionRow[]) {
  const pageSlugs = [...new Set(mentions.map((m) => m.pageSlug))].slice(0, 10);
  // Driven from the page list: with `page_slug IN (...)` the planner read the brain's mentions through
  // the (brain, concept) index (16 ms per refresh at 200 sources, growing).
  return db.all<{ slug: string; title: string }>(sql`
    SELECT p.slug, p.title FROM (
      SELECT m.concept, COUNT(*) AS n FROM json_each(${JSON.stringify(pageSlugs)}) j
      CROSS JOIN concept_mentions m ON m.brain_id = ${brainId} AND m.page_slug = j.value
      WHERE m.concept != ${slug}
      GROUP BY m.concept ORDER BY n DESC LIMIT 40
    ) c CROSS JOIN pages p ON p.brain_id = ${brainId} AND p.slug = c.concept AND p.kind = 'concept'
    ORDER BY c.n DESC, p.slug LIMIT ${MAX_RELATED}`);
}

/** A concept that just earned its page: the source pages that name it (not notes, not edited) link to it. */
async function linkInward(db: RootDb, brainId: string, slug: string, mentions: MentionRow[]) {
  const surfaces = [...new Set(mentions.map((m) => m.surface))].sort((a, b) => b.length - a.length);
  const pageSlugs = [...new Set(mentions.map((m) => m.pageSlug))].slice(0, MAX_INWARD_LINKS);
  const targets = await db.all<{ id: number; markdown: string }>(sql`
    SELECT p.id, p.markdown FROM json_each(${JSON.stringify(pageSlugs)}) j
    CROSS JOIN pages p ON p.brain_id = ${brainId} AND p.slug = j.value
    WHERE p.kind = 'source' AND p.edited = 0
      AND NOT EXISTS (SELECT 1 FROM page_links l WHERE l.from_page_id = p.id AND l.to_slug = ${slug})`);
  const statements: Statement[] = [];
  for (const page of targets) {
    const { markdown, linked } = linkConceptsInline(page.markdown, [{ slug, surfaces }]);
    if (linked.length === 0) continue;
    statements.push(db.run(sql`UPDATE pages SET markdown = ${markdown}, updated_at = ${Date.now()} WHERE id = ${page.id} AND edited = 0`));
    statements.push(db.run(sql`INSERT OR IGNORE INTO page_links (from_page_id, brain_id, to_slug) VALUES (${page.id}, ${brainId}, ${slug})`));
  }
  await runBatch(db, statements);
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
