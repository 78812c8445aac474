// A source's concepts meet the brain: each key resolves to a concept page slug (through the alias index),
// and a concept is linked when it earns a page: named by another source too, already a page, or central
// to this one. Index lookups only (by brain and key), so the cost does not grow with the brain.
import type { InValue } from "@libsql/client";
import type { Fragment, Statement } from "../db/plain";
import { dirtyPagesOfStatement } from "./cleanup";
import { MAX_SHOWN_MENTIONS } from "./concept-page";
import { ownPagesByKey, slugOf, type ConceptFacts } from "./facts";
import { AMBIGUOUS } from "./keys";
import type { ExtractedConcept } from "./extract";
import { loneWriteStatements, type LoneMention } from "./lone";

/** What the earlier sources of one write batch named: concepts by slug, and the aliases their writes record. */
export class NamedInBatch {
  readonly bySlug = new Map<string, ResolvedConcept>();
  readonly aliases = new Map<string, string>();
}

/** Salience at which one source alone earns a concept its page (named three times, or in the title). */
export const CENTRAL_SALIENCE = 3;

export interface ResolvedConcept extends ExtractedConcept {
  slug: string;
  /** Earns a page: pages link to it. */
  linked: boolean;
  /**
   * Linked inline in the source's pages as prepared. A concept can earn its page after that (a later source of
   * the same batch names it too: `linked` turns true then), so late links go by this, not by `linked`.
   */
  inline?: boolean;
  /** Its page must be re-derived after this source's write. */
  refresh?: boolean;
  /** Named like one of the source's own pages: that page is the concept's page. */
  ownPage?: boolean;
}

/**
 * A source's concepts, resolved with what the brain knows of them (`facts`, read just before).
 * `ownSlugs`: the source's own page slugs. A concept whose key is the slug of a source or note page (a
 * source titled "Marie Curie") has that page as its page: links go there and no concept page is made.
 * `batch`: what sources prepared earlier in the same write batch named (not yet in the database): named
 * there counts as named by another source, the earlier source's concept, if it was lone, becomes linked too
 * (its write stores mention rows, not a lone row), and the aliases its write will record resolve as if
 * recorded. This source's are added.
 */
export function resolveConcepts(
  facts: ConceptFacts,
  extracted: ExtractedConcept[],
  ownSlugs: string[] = [],
  batch: NamedInBatch = new NamedInBatch(),
): ResolvedConcept[] {
  if (extracted.length === 0) return [];
  const known = new Map(facts.aliases);
  // The database's aliases were recorded first, so they win, as the alias insert lets them; an ambiguous
  // one (AMBIGUOUS: two names claimed it) resolves to nothing.
  const aliases = { get: (key: string) => (known.has(key) ? known.get(key) : batch.aliases.get(key)) || undefined };
  const pageSlugs = new Set([...facts.pageSlugs, ...ownSlugs]);
  const ownByKey = ownPagesByKey(ownSlugs);
  const bySlug = new Map<string, ResolvedConcept>();
  for (const c of extracted) {
    const slug = slugOf(c, aliases, ownByKey);
    const known = bySlug.get(slug);
    if (known) {
      // Two spellings of one concept in this source ("Curie" when the brain already knows "Marie Curie").
      known.salience += c.salience;
      for (const s of c.surfaces) if (!known.surfaces.includes(s)) known.surfaces.push(s);
      known.mentions.push(...c.mentions.filter((m) => !known.mentions.some((k) => k.sentence === m.sentence)).slice(0, 3));
      continue;
    }
    bySlug.set(slug, { ...c, slug, linked: false });
  }
  const resolved = [...bySlug.values()];
  const found = new Map(facts.elsewhere.map((r) => [r.slug, r]));
  for (const c of resolved) {
    const f = found.get(c.slug);
    const earlier = batch.bySlug.get(c.slug);
    const elsewhereToo = Number(f?.others) > 0 || Number(f?.lone) > 0 || earlier !== undefined;
    c.ownPage = ownSlugs.includes(c.slug);
    c.linked = !c.ownPage && (elsewhereToo || Number(f?.page) > 0 || pageSlugs.has(c.slug) || c.salience >= CENTRAL_SALIENCE);
    // A concept page already showing MAX_SHOWN_MENTIONS mentions from other sources does not change when one
    // more source names it: no refresh, so a popular concept costs nothing more per source.
    c.refresh = c.linked && !(Number(f?.page) > 0 && Number(f?.others) >= MAX_SHOWN_MENTIONS);
  }
  for (const c of resolved) {
    const earlier = batch.bySlug.get(c.slug);
    // Not yet written: the earlier source's lone concept is stored as mention rows after all (its pages are
    // linked inward when the concept's page is made).
    if (earlier && !earlier.linked && !earlier.ownPage && c.linked) {
      earlier.linked = true;
      earlier.refresh = true;
    }
    if (!earlier) batch.bySlug.set(c.slug, c);
    for (const alias of aliasesRecorded(c)) {
      const claimed = batch.aliases.get(alias);
      batch.aliases.set(alias, claimed === undefined ? c.slug : claimOf(alias, claimed, c.slug));
    }
  }
  return resolved;
}

/**
 * Statements for the source's write batch (each guarded by `current`): the concepts its old mentions named
 * that have pages become dirty, its mentions are replaced (linked concepts as mention rows, the others as
 * its lone row, lone.ts), aliases recorded, and its linked concepts dirty. `firstWrite`: the source was never
 * written, so it has no old mentions or lone row to replace.
 */
export function conceptWriteStatements(source: { id: string; brainId: string }, concepts: ResolvedConcept[], current: Fragment, firstWrite = false): Statement[] {
  const rowsOf = (list: ResolvedConcept[]): LoneMention[] =>
    list.flatMap((c) => c.mentions.map((m) => ({ c: c.slug, p: m.pageSlug, s: m.surface, t: m.sentence, w: c.salience })));
  const linked = concepts.filter((c) => c.linked);
  const mentions = rowsOf(linked);
  const aliases = concepts.flatMap((c) => aliasesRecorded(c).map((a) => ({ a, c: c.slug })));
  const dirty = concepts.filter((c) => c.refresh ?? c.linked).map((c) => c.slug);
  const guarded = (sql: string, ...args: InValue[]): Statement => ({ sql: `${sql} ${current.sql}`, args: [...args, ...current.args] });
  return [
    ...(firstWrite ? [] : [dirtyPagesOfStatement(source.id, current), guarded("DELETE FROM concept_mentions WHERE source_id = ? AND", source.id)]),
    guarded(
      `INSERT INTO concept_mentions (brain_id, concept, source_id, page_slug, surface, sentence, weight)
      SELECT ?, json_extract(value, '$.c'), ?, json_extract(value, '$.p'), json_extract(value, '$.s'), json_extract(value, '$.t'), json_extract(value, '$.w')
      FROM json_each(?) WHERE`,
      source.brainId, source.id, JSON.stringify(mentions),
    ),
    // claimOf in SQL: a key that is its own concept keeps it; two names claiming one key make it ambiguous.
    {
      sql: `INSERT INTO concept_aliases (brain_id, alias, concept) SELECT ?, json_extract(value, '$.a'), json_extract(value, '$.c') FROM json_each(?) WHERE ${current.sql}
      ON CONFLICT (brain_id, alias) DO UPDATE SET concept = CASE WHEN concept_aliases.concept = '${AMBIGUOUS}' THEN excluded.alias ELSE '${AMBIGUOUS}' END
      WHERE concept_aliases.concept NOT IN (concept_aliases.alias, excluded.concept)
        AND (concept_aliases.concept = '${AMBIGUOUS}') = (excluded.concept = excluded.alias)`,
      args: [source.brainId, JSON.stringify(aliases), ...current.args],
    },
    guarded("INSERT OR IGNORE INTO concept_dirty (brain_id, concept) SELECT ?, value FROM json_each(?) WHERE", source.brainId, JSON.stringify(dirty)),
    ...loneWriteStatements(source, rowsOf(concepts.filter((c) => !c.linked)), linked.map((c) => c.slug), current, firstWrite),
  ];
}

/**
 * Who holds alias key `alias`, held by `held` and now claimed by `claim` (`alias` itself: the key named alone
 * and resolved to nothing else). Two different names claiming it ("Andy Williams" and "Larry Williams" for
 * "williams") leave it to neither, whichever came first; a key that is a concept of its own stays one; an
 * ambiguous key named alone becomes a concept of its own. A key named alone while a name held it (two sources
 * prepared at once) leaves it to the name.
 */
export function claimOf(alias: string, held: string, claim: string): string {
  if (held === claim || held === alias) return held;
  if (held === AMBIGUOUS) return claim === alias ? alias : AMBIGUOUS;
  return claim === alias ? held : AMBIGUOUS;
}

/** The alias keys a concept's write records for its slug (a lone phrase records none). */
function aliasesRecorded(c: ResolvedConcept): string[] {
  return c.linked || c.kind === "proper" ? [c.key, ...c.aliasKeys] : [];
}
