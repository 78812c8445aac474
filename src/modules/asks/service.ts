// The caller's own asks of one brain (or of a brain set), newest first, and clearing them. The asks table
// is written by the answer module (src/modules/answer/asks.ts); this module only reads and deletes rows.
import { and, desc, eq, isNull, lt, ne, or, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { decodeTimeCursor, encodeTimeCursor } from "../../lib/time-cursor";
import { wholeNumber } from "../../lib/whole-number";
import { MAX_ASK_LIMIT } from "./model";
import { asks, type AskSurface, type StoredCitation } from "../answer/asks";

export interface AskHistoryItem {
  id: string;
  question: string;
  thin: boolean;
  /** Where it was asked: `v1`, `unversioned`, `mcp` or `brain-set`. */
  surface: AskSurface;
  createdAt: string;
  /** The answer as written, `[[ref]]` citations kept (null for asks recorded before answers were kept). */
  answerMd: string | null;
  /** The cited pages, with their URLs; brain-set asks also name each page's brain. */
  citations: HistoryCitation[];
}

export interface HistoryCitation {
  brain?: StoredCitation["brain"];
  slug: string;
  ref?: string;
  title: string;
  url: string;
}

/** Where a cited page is read (the wiki page URL), given by the controller. */
export type PageUrl = (brainId: string, slug: string) => string;

/** Which asks: one brain's (asked of the brain itself), or a brain set's (its primary brain and its id). */
export type AskScope = { brainId: string; setId?: undefined } | { brainId: string; setId: string };

function scopeWhere(accountId: string, scope: AskScope): SQL {
  // Brain-set asks recorded before sets were named (set_id null) stay with their primary brain's sets.
  const surface = scope.setId
    ? and(eq(asks.surface, "brain-set"), or(eq(asks.setId, scope.setId), isNull(asks.setId)))
    : ne(asks.surface, "brain-set");
  return and(eq(asks.accountId, accountId), eq(asks.brainId, scope.brainId), surface)!;
}

function citationsOf(stored: StoredCitation[] | null, scope: AskScope, pageUrl: PageUrl): HistoryCitation[] {
  return (stored ?? []).map((c) =>
    scope.setId
      ? { brain: c.brain, slug: c.slug, ref: c.ref, title: c.title, url: pageUrl(c.brain.id, c.slug) }
      : { slug: c.slug, title: c.title, url: pageUrl(c.brain.id, c.slug) },
  );
}

export async function listAsks(
  db: Db,
  accountId: string,
  scope: AskScope,
  opts: { limit?: string; cursor?: string },
  pageUrl: PageUrl,
): Promise<{ asks: AskHistoryItem[]; nextCursor: string | null }> {
  const limit = wholeNumber("limit", opts.limit, 1, MAX_ASK_LIMIT) ?? 20;
  const after = opts.cursor ? decodeTimeCursor(opts.cursor) : null;
  const rows = await db
    .select()
    .from(asks)
    .where(
      and(
        scopeWhere(accountId, scope),
        after ? or(lt(asks.createdAt, after.at), and(eq(asks.createdAt, after.at), lt(asks.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(asks.createdAt), desc(asks.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    asks: page.map((r) => ({
      id: r.id,
      question: r.question,
      thin: r.thin,
      surface: r.surface,
      createdAt: new Date(r.createdAt).toISOString(),
      answerMd: r.answerMd,
      citations: citationsOf(r.citations, scope, pageUrl),
    })),
    nextCursor: rows.length > limit && last ? encodeTimeCursor(last.createdAt, last.id) : null,
  };
}

/** Deletes the caller's asks in the scope (others' asks and anonymous paid asks stay); returns how many. */
export async function clearAsks(db: Db, accountId: string, scope: AskScope): Promise<number> {
  const deleted = await db.delete(asks).where(scopeWhere(accountId, scope)).returning({ id: asks.id });
  return deleted.length;
}
