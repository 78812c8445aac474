// Conversations in the database: finding one for its owner (404 for anyone else or another brain), its last
// turns, adding a turn, the caller's list (newest first, cursor paged) and deleting one.
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversations, conversationTurns, type TurnCitation } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { decodeTimeCursor, encodeTimeCursor } from "../../lib/time-cursor";
import { newId } from "../../lib/secrets";
import { wholeNumber } from "../../lib/whole-number";
import type { PriorTurn } from "./rewrite";

export const MAX_CONVERSATION_LIMIT = 100;
/** A conversation's title is its first question, cut to this. */
const TITLE_CHARS = 80;

/** What a conversation is about: one brain, or a brain set (with its primary brain). */
export interface ConversationScope {
  brainId: string;
  setId: string | null;
}

export type ConversationRow = typeof conversations.$inferSelect;

/** The caller's conversation of this brain or set; any other id (another person's, another brain's, deleted) is 404. */
export async function ownConversation(db: Db, accountId: string, id: string, scope?: ConversationScope): Promise<ConversationRow> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.id, id),
        eq(conversations.accountId, accountId),
        scope ? eq(conversations.brainId, scope.brainId) : undefined,
        scope ? (scope.setId ? eq(conversations.setId, scope.setId) : isNull(conversations.setId)) : undefined,
      ),
    )
    .limit(1);
  if (!row) throw notFound("Conversation");
  return row;
}

/** The newest `count` turns, oldest first (a long conversation reads only these: the index on (id, seq)). */
export async function lastTurns(db: Db, conversationId: string, count: number): Promise<PriorTurn[]> {
  const rows = await db
    .select({ question: conversationTurns.question, standaloneQuestion: conversationTurns.standaloneQuestion, answerMd: conversationTurns.answerMd })
    .from(conversationTurns)
    .where(eq(conversationTurns.conversationId, conversationId))
    .orderBy(desc(conversationTurns.seq))
    .limit(count);
  return rows.reverse();
}

export interface NewTurn {
  askId: string;
  question: string;
  standaloneQuestion: string;
  answerMd: string;
  citations: TurnCitation[];
  thin: boolean;
}

/** Starts a conversation with its first turn; its title is that question. */
export async function startConversation(db: Db, accountId: string, scope: ConversationScope, turn: NewTurn): Promise<string> {
  const id = newId("conv");
  const now = Date.now();
  await db.insert(conversations).values({ id, accountId, brainId: scope.brainId, setId: scope.setId, title: titleOf(turn.question), turnCount: 0, createdAt: now, updatedAt: now });
  await appendTurn(db, id, turn);
  return id;
}

/** Adds a turn after the last one; the count is taken in the same statement, so concurrent turns get distinct numbers. */
export async function appendTurn(db: Db, conversationId: string, turn: NewTurn): Promise<void> {
  const now = Date.now();
  const [bumped] = await db
    .update(conversations)
    .set({ turnCount: sql`${conversations.turnCount} + 1`, updatedAt: now })
    .where(eq(conversations.id, conversationId))
    .returning({ seq: conversations.turnCount });
  // Deleted while this turn was answered: the answer was given, and there is nothing to add it to.
  if (!bumped) return;
  await db.insert(conversationTurns).values({ id: newId("turn"), conversationId, seq: bumped.seq, ...turn, createdAt: now });
}

export interface ConversationItem {
  id: string;
  title: string;
  brainId: string;
  setId: string | null;
  turns: number;
  createdAt: string;
  updatedAt: string;
}

const itemOf = (r: ConversationRow): ConversationItem => ({
  id: r.id,
  title: r.title,
  brainId: r.brainId,
  setId: r.setId,
  turns: r.turnCount,
  createdAt: new Date(r.createdAt).toISOString(),
  updatedAt: new Date(r.updatedAt).toISOString(),
});

/** The caller's conversations, the last continued first. */
export async function listConversations(db: Db, accountId: string, opts: { limit?: string; cursor?: string }): Promise<{ conversations: ConversationItem[]; nextCursor: string | null }> {
  const limit = wholeNumber("limit", opts.limit, 1, MAX_CONVERSATION_LIMIT) ?? 20;
  const after = opts.cursor ? decodeTimeCursor(opts.cursor) : null;
  const rows = await db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.accountId, accountId),
        after ? or(lt(conversations.updatedAt, after.at), and(eq(conversations.updatedAt, after.at), lt(conversations.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(conversations.updatedAt), desc(conversations.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { conversations: page.map(itemOf), nextCursor: rows.length > limit && last ? encodeTimeCursor(last.updatedAt, last.id) : null };
}

export interface TurnItem {
  askId: string;
  question: string;
  standaloneQuestion: string;
  answerMd: string;
  citations: Array<TurnCitation & { url: string }>;
  thin: boolean;
  createdAt: string;
}

/** One conversation with its turns in order (the page URL of each citation from the caller). */
export async function conversationWithTurns(db: Db, row: ConversationRow, urlOf: (brainId: string, slug: string) => string): Promise<{ conversation: ConversationItem; turns: TurnItem[] }> {
  const turns = await db.select().from(conversationTurns).where(eq(conversationTurns.conversationId, row.id)).orderBy(conversationTurns.seq);
  return {
    conversation: itemOf(row),
    turns: turns.map((t) => ({
      askId: t.askId,
      question: t.question,
      standaloneQuestion: t.standaloneQuestion,
      answerMd: t.answerMd,
      citations: t.citations.map((c) => ({ ...c, url: urlOf(c.brain.id, c.slug) })),
      thin: t.thin,
      createdAt: new Date(t.createdAt).toISOString(),
    })),
  };
}

/** Deletes the caller's conversation and its turns (404 when it is not theirs). Its asks stay in the ask history. */
export async function deleteConversation(db: Db, accountId: string, id: string): Promise<void> {
  const row = await ownConversation(db, accountId, id);
  await db.delete(conversationTurns).where(eq(conversationTurns.conversationId, row.id));
  await db.delete(conversations).where(eq(conversations.id, row.id));
}

function titleOf(question: string): string {
  const flat = question.replace(/\s+/g, " ").trim();
  return flat.length <= TITLE_CHARS ? flat : `${flat.slice(0, TITLE_CHARS - 1)}…`;
}
