// Late links: a source is prepared (its concepts resolved, its links placed) before it is written, and a
// concept page can be created in between by another batch's refresh that read the concept's mentions before
// this source's were written: neither side would link this source to it. Run under the brain's refresh lock
// (refreshAllDirtyConcepts), after the source is written, this links the source's pages to the concepts it
// names that have a page by now. One index probe per source; pages are rewritten only when a link is added.
import type { RootDb } from "../db/client";
import { linkConceptsInline, MAX_CONCEPT_LINKS_PER_PAGE } from "../links/inline-links";
import { linksAddedStatements, runBatch, type Statement } from "../links/page-links";
import { CONCEPT_PAGES, queryRows } from "../db/plain";
import type { ResolvedConcept } from "./resolve";

export interface WrittenConcepts {
  sourceId: string;
  /** Notes are never rewritten. */
  type: string;
  pageSlugs: string[];
  concepts: ResolvedConcept[];
}

export async function linkLateConcepts(db: RootDb, brainId: string, written: WrittenConcepts[]): Promise<number> {
  let added = 0;
  for (const source of written) {
    if (source.type === "note") continue;
    // Not `linked`: a source's concept marked linked by a later source of its batch, after its pages were
    // prepared, has no link in them; when its page was made before this write, nothing else links them.
    const unlinked = source.concepts.filter((c) => !c.inline && !c.ownPage && !source.pageSlugs.includes(c.slug));
    if (unlinked.length === 0) continue;
    const withPage = await queryRows<{ slug: string }>(
      db,
      `SELECT p.slug FROM json_each(?) j CROSS JOIN pages p ${CONCEPT_PAGES} ON p.brain_id = ? AND p.slug = j.value WHERE p.kind = 'concept'`,
      JSON.stringify(unlinked.map((c) => c.slug)),
      brainId,
    );
    if (withPage.length === 0) continue;
    const have = new Set(withPage.map((r) => r.slug));
    const targets = unlinked.filter((c) => have.has(c.slug)).map((c) => ({ slug: c.slug, surfaces: c.surfaces }));
    const pages = await queryRows<{ id: number; markdown: string }>(
      db,
      `SELECT p.id, p.markdown FROM json_each(?) j
      CROSS JOIN pages p ON p.brain_id = ? AND p.slug = j.value
      WHERE p.source_id = ? AND p.kind = 'source' AND p.edited = 0`,
      JSON.stringify(source.pageSlugs),
      brainId,
      source.sourceId,
    );
    const statements: Statement[] = [];
    for (const page of pages) {
      // The page's own cap: the links it already carries count.
      const carried = [...page.markdown.matchAll(/\[\[[^\[\]|\n]+\|[^\[\]\n]*\]\]/g)].length;
      const room = MAX_CONCEPT_LINKS_PER_PAGE - carried;
      if (room <= 0) continue;
      const { markdown, linked } = linkConceptsInline(page.markdown, targets, room);
      if (linked.length === 0) continue;
      added += linked.length;
      statements.push(...linksAddedStatements(page.id, brainId, markdown, linked, page.markdown));
    }
    await runBatch(db, statements);
  }
  return added;
}
