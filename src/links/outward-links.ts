// A new source's pages link to the brain's pages whose titles they name (inline, or on a `Related:` line).
// Candidates come from the title index (titles starting at one of the page's words), so the cost does not
// grow with the brain. Runs on an extraction thread (its own index and read connection) or, for a remote
// database or without a thread, on the main connection.
import type { TitleIndex } from "./title-index";
import { addTitleLinks, linkRelatedPages, type LinkablePage } from "./wiki-links";

/**
 * `fresh` with links to the pages of the brain (not of `sourceId`) and to each other whose titles they name;
 * `seen`: the last page id whose title was looked at (pages written later are linked after the write,
 * ingest/inward-links.ts findLateLinks).
 */
export async function linkOutward<P extends LinkablePage>(titles: TitleIndex, brainId: string, sourceId: string, fresh: P[]): Promise<{ pages: P[]; seen: number }> {
  const others = new Map<string, LinkablePage>();
  const { pages: rows, seen } = await titles.candidatesSeen(brainId, sourceId, fresh.map((p) => p.markdown));
  for (const r of rows) others.set(r.slug, { ...r, markdown: "" });
  const all = [...fresh, ...others.values()];
  const related = linkRelatedPages(all);
  const titleOf = new Map(all.map((p) => [p.slug, p.title]));
  const pages = fresh.map((p) => ({ ...p, markdown: addTitleLinks(p.markdown, (related.get(p.slug) ?? []).map((slug) => ({ slug, title: titleOf.get(slug)! }))) }));
  return { pages, seen };
}
