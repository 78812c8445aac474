// What the brain knows of a source's concepts before they are resolved (resolve.ts): which keys are aliases
// of known concepts, which are slugs of source pages, and which are named elsewhere. Index reads only, through
// a plain reader, so they run on the main connection or in a concept extraction thread's own read-only
// connection (extract-pool.ts) beside the tagging, off the thread that writes.
import { MAX_SHOWN_MENTIONS } from "./concept-page";
import type { ExtractedConcept } from "./extract";
import { AMBIGUOUS, conceptKey } from "./keys";
import type { ReadRows } from "../db/read-rows";

export type { ReadRows };

/** What the brain knows of a source's concepts: index reads only, so they can run off the main thread. */
export interface ConceptFacts {
  /** [alias key, concept slug]: keys the brain already resolves to a concept. */
  aliases: [string, string][];
  /** Keys that are the slug of a source or note page. */
  pageSlugs: string[];
  /** Per concept slug: other sources' mentions (up to a concept page's number), its page, another source's lone naming. */
  elsewhere: { slug: string; others: number; page: number; lone: number }[];
}

/** The source's own page named like the concept ("Solar Panels" for "solar panel") is that concept's page. */
export const ownPagesByKey = (ownSlugs: string[]) => new Map(ownSlugs.map((s) => [conceptKey(s.replace(/-/g, " "), "phrase"), s] as const));
/**
 * A concept's page slug: what its key is an alias of, else the source page named like it, else the concept of
 * its organization's short name when the brain knows that name as a concept of its own (named "Northwind"
 * before "Northwind Coffee"), else its key.
 */
export const slugOf = (c: ExtractedConcept, aliases: { get(key: string): string | undefined }, ownByKey: Map<string | null, string>) =>
  aliases.get(c.key) ?? ownByKey.get(c.key) ?? (c.shortKey !== undefined && aliases.get(c.shortKey) === c.shortKey ? c.shortKey : c.key);

/**
 * The facts `resolveConcepts` needs, read now. `known` (known-keys.ts, in the caller's read transaction): a
 * slug it has never seen has no page and is named nowhere, so it is not probed; aliases are always read.
 */
export async function conceptFacts(
  read: ReadRows,
  brainId: string,
  sourceId: string,
  extracted: ExtractedConcept[],
  ownSlugs: string[],
  known: (slug: string) => boolean = () => true,
): Promise<ConceptFacts> {
  if (extracted.length === 0) return { aliases: [], pageSlugs: [], elsewhere: [] };
  const aliasKeys = [...new Set(extracted.flatMap((c) => [c.key, ...c.aliasKeys]))];
  const aliasRows = await read(
    "SELECT a.alias, a.concept FROM json_each(?) j CROSS JOIN concept_aliases a ON a.brain_id = ? AND a.alias = j.value",
    [JSON.stringify(aliasKeys), brainId],
  );
  const aliases: [string, string][] = aliasRows.map((r) => [String(r.alias), String(r.concept)]);
  // An ambiguous key resolves to itself.
  const aliasMap = new Map(aliases.filter(([, concept]) => concept !== AMBIGUOUS));
  const ownByKey = ownPagesByKey(ownSlugs);
  const slugs = [...new Set(extracted.map((c) => slugOf(c, aliasMap, ownByKey)))];
  const keys = new Set(extracted.map((c) => c.key));
  // The pages named like a key (a source or note page: the concept's page is that page) or like a concept's
  // slug (its concept page): one probe per name. Driven from the name list (CROSS JOIN): with `slug IN
  // (...)` the planner took the (brain, kind) index and read every page of the brain (3.9 ms per source at
  // 200 sources, growing).
  const names = [...new Set([...keys, ...slugs])].filter(known);
  const pageRows = names.length
    ? await read("SELECT p.slug, p.kind FROM json_each(?) j CROSS JOIN pages p ON p.brain_id = ? AND p.slug = j.value", [JSON.stringify(names), brainId])
    : [];
  const conceptPages = new Set(pageRows.filter((r) => r.kind === "concept").map((r) => String(r.slug)));
  // Named elsewhere: per concept, the other sources' mentions counted up to the number a concept page shows
  // (index probes that stop there), and whether another source named it alone (a merged lone concept, lone.ts).
  const probed = slugs.filter(known);
  const found = probed.length
    ? await read(
        `SELECT j.value AS slug,
          (SELECT count(*) FROM (SELECT 1 FROM concept_mentions m WHERE m.brain_id = ?1 AND m.concept = j.value AND m.source_id != ?2 LIMIT ${MAX_SHOWN_MENTIONS})) AS others,
          EXISTS (SELECT 1 FROM concept_seen s WHERE s.brain = (SELECT number FROM brain_numbers WHERE brain_id = ?1) AND s.concept = j.value
            AND s.lone IS NOT (SELECT id FROM concept_lone WHERE source_id = ?2)) AS lone
        FROM json_each(?3) j`,
        [brainId, sourceId, JSON.stringify(probed)],
      )
    : [];
  const bySlug = new Map(found.map((r) => [String(r.slug), r]));
  return {
    aliases,
    pageSlugs: pageRows.filter((r) => r.kind !== "concept" && keys.has(String(r.slug))).map((r) => String(r.slug)),
    elsewhere: slugs.map((slug) => ({ slug, others: Number(bySlug.get(slug)?.others ?? 0), page: conceptPages.has(slug) ? 1 : 0, lone: Number(bySlug.get(slug)?.lone ?? 0) })),
  };
}
