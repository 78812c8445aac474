// Wiki pages of a brain, read-only: the list (paginated by slug) and one page with its rendered HTML.
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { pages } from "../../db/schema";
import { extractWikiLinks } from "../../ingest";
import { notFound } from "../../lib/errors";
import { markdownLabel, renderMarkdown } from "./render";

export interface PageListItem {
  slug: string;
  title: string;
  sourceId: string;
  updatedAt: string;
}

export interface PageView extends PageListItem {
  markdown: string;
  /** Sanitized HTML; [[slug]] links point at `pagePath(slug)`. */
  html: string;
  /** Slugs this page links to with [[slug]]. */
  links: string[];
}

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;

export async function listPages(db: Db, brainId: string, opts: { limit?: number; cursor?: string }): Promise<{ pages: PageListItem[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(opts.limit ?? DEFAULT_PAGE_LIMIT, 1), MAX_PAGE_LIMIT);
  const rows = await db
    .select({ slug: pages.slug, title: pages.title, sourceId: pages.sourceId, updatedAt: pages.updatedAt })
    .from(pages)
    .where(and(eq(pages.brainId, brainId), opts.cursor ? gt(pages.slug, opts.cursor) : undefined))
    .orderBy(asc(pages.slug))
    .limit(limit + 1);
  const more = rows.length > limit;
  const items = rows.slice(0, limit).map((r) => ({ ...r, updatedAt: new Date(r.updatedAt).toISOString() }));
  return { pages: items, nextCursor: more ? items.at(-1)!.slug : null };
}

export async function getPage(db: Db, brainId: string, slug: string, pagePath: (slug: string) => string): Promise<PageView> {
  const row = await db.query.pages.findFirst({ where: and(eq(pages.brainId, brainId), eq(pages.slug, slug)) });
  if (!row) throw notFound("Page");
  const links = extractWikiLinks(row.markdown);
  const titles = new Map(
    links.length
      ? (await db.select({ slug: pages.slug, title: pages.title }).from(pages).where(and(eq(pages.brainId, brainId), inArray(pages.slug, links)))).map(
          (r) => [r.slug, r.title] as const,
        )
      : [],
  );
  // [[slug]] becomes a link to that page; a link to a page that does not exist stays as plain text.
  const linked = row.markdown.replace(/\[\[([^\[\]|\n]+)(?:\|([^\[\]\n]*))?\]\]/g, (whole, target: string, label?: string) => {
    const title = titles.get(target.trim());
    return title === undefined ? (label ?? target) : `[${markdownLabel(label || title)}](${pagePath(target.trim())})`;
  });
  return {
    slug: row.slug,
    title: row.title,
    sourceId: row.sourceId,
    updatedAt: new Date(row.updatedAt).toISOString(),
    markdown: row.markdown,
    html: renderMarkdown(linked),
    links,
  };
}
