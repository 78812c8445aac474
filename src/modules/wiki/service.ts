// Wiki pages of a brain: the list (paginated by slug, filtered by kind) and one page with its rendered
// HTML, outgoing links (that exist) and backlinks (pages linking here, from the page_links index).
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { pages } from "../../db/schema";
import { extractWikiLinks } from "../../ingest";
import { notFound } from "../../lib/errors";
import { slugRef } from "../../lib/slug";
import { markdownLabel, renderMarkdown } from "./render";

export type PageKind = "source" | "note" | "concept";

export interface PageListItem {
  slug: string;
  title: string;
  kind: PageKind;
  /** Null for concept pages. */
  sourceId: string | null;
  edited: boolean;
  updatedAt: string;
}

export interface PageView extends PageListItem {
  markdown: string;
  /** Sanitized HTML; [[slug]] links point at `pagePath(slug)`. */
  html: string;
  /** Slugs of existing pages this page links to with [[slug]] or [[slug|title]]. */
  links: string[];
  /** Slugs of pages that link here. */
  backlinks: string[];
  sourceChanged: boolean;
  revision: number;
}

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;
/** Backlinks listed on one page (a hub concept can be named by thousands). */
export const MAX_BACKLINKS = 500;

const KIND_LITERALS: Record<PageKind, string> = { source: "'source'", note: "'note'", concept: "'concept'" };

/**
 * `kind = '…'` with the kind written in the statement, not bound: the planner takes a partial index (concept
 * and note pages, migration 0021) only when the statement itself says the kind.
 */
export const kindLiteral = (kind: PageKind) => sql.raw(KIND_LITERALS[kind]);

export async function listPages(
  db: Db,
  brainId: string,
  opts: { limit?: number; cursor?: string; kind?: PageKind },
): Promise<{ pages: PageListItem[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(opts.limit ?? DEFAULT_PAGE_LIMIT, 1), MAX_PAGE_LIMIT);
  const rows = await db
    .select({ slug: pages.slug, title: pages.title, kind: pages.kind, sourceId: pages.sourceId, edited: pages.edited, updatedAt: pages.updatedAt })
    .from(pages)
    .where(and(eq(pages.brainId, brainId), opts.kind ? sql`${pages.kind} = ${kindLiteral(opts.kind)}` : undefined, opts.cursor ? gt(pages.slug, opts.cursor) : undefined))
    .orderBy(asc(pages.slug))
    .limit(limit + 1);
  const more = rows.length > limit;
  const items = rows.slice(0, limit).map((r) => ({ ...r, updatedAt: new Date(r.updatedAt).toISOString() }));
  return { pages: items, nextCursor: more ? items.at(-1)!.slug : null };
}

export async function findPageRow(db: Db, brainId: string, slug: string) {
  const row = await db.query.pages.findFirst({ where: and(eq(pages.brainId, brainId), eq(pages.slug, slugRef(slug))) });
  if (!row) throw notFound("Page");
  return row;
}

export async function backlinksOf(db: Db, brainId: string, slug: string): Promise<string[]> {
  const rows = await db.all<{ slug: string }>(sql`
    SELECT p.slug FROM page_links l CROSS JOIN pages p ON p.id = l.from_page_id
    WHERE l.brain_id = ${brainId} AND l.to_slug = ${slug} ORDER BY p.slug LIMIT ${MAX_BACKLINKS}`);
  return rows.map((r) => r.slug).filter((s) => s !== slug);
}

export async function getPage(db: Db, brainId: string, slug: string, pagePath: (slug: string) => string): Promise<PageView> {
  const row = await findPageRow(db, brainId, slug);
  const targets = extractWikiLinks(row.markdown);
  const titles = new Map(
    targets.length
      ? (await db.select({ slug: pages.slug, title: pages.title }).from(pages).where(and(eq(pages.brainId, brainId), inArray(pages.slug, targets)))).map(
          (r) => [r.slug, r.title] as const,
        )
      : [],
  );
  // [[slug]] becomes a link to that page titled by the page; [[slug|label]] shows the label; a link to a
  // page that does not exist stays as plain text.
  const linked = row.markdown.replace(/\[\[([^\[\]|\n]+)(?:\|([^\[\]\n]*))?\]\]/g, (whole, target: string, label?: string) => {
    const title = titles.get(slugRef(target));
    return title === undefined ? (label ?? target) : `[${markdownLabel(label || title)}](${pagePath(slugRef(target))})`;
  });
  return {
    slug: row.slug,
    title: row.title,
    kind: row.kind,
    sourceId: row.sourceId,
    edited: row.edited,
    updatedAt: new Date(row.updatedAt).toISOString(),
    markdown: row.markdown,
    html: renderMarkdown(linked),
    links: targets.filter((t) => titles.has(t)),
    backlinks: await backlinksOf(db, brainId, row.slug),
    sourceChanged: row.sourceChanged,
    revision: row.revision,
  };
}
