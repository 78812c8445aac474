// Conversations (migration 0032): a person's follow-up asks of one brain or brain set, and their turns.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts, brainSets, brains } from "./schema";

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

/** A cited page as a turn keeps it (the same fields as the ask history's). */
export interface TurnCitation {
  brain: { id: string; name: string; kind: string };
  slug: string;
  ref: string;
  title: string;
}

export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    /** The person (or key holder) who started it: nobody else sees it. */
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The brain asked (a brain set's primary for set conversations). */
    brainId: text("brain_id")
      .notNull()
      .references(() => brains.id, { onDelete: "cascade" }),
    /** The brain set asked; null for a brain's conversation. */
    setId: text("set_id").references(() => brainSets.id, { onDelete: "cascade" }),
    /** The first question, shortened. */
    title: text("title").notNull(),
    /** Kept beside the turns so the list never counts them. */
    turnCount: integer("turn_count").notNull().default(0),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [index("conversations_account_time").on(t.accountId, t.updatedAt)],
);

export const conversationTurns = sqliteTable(
  "conversation_turns",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** 1, 2, 3… in the order asked. */
    seq: integer("seq").notNull(),
    /** The ask this turn was (the asks table's id, the answer's `id`). */
    askId: text("ask_id").notNull(),
    question: text("question").notNull(),
    /** What was searched: the question itself, or its rewrite from the earlier turns. */
    standaloneQuestion: text("standalone_question").notNull(),
    answerMd: text("answer_md").notNull(),
    citations: text("citations", { mode: "json" }).notNull().$type<TurnCitation[]>(),
    thin: integer("thin", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("conversation_turns_seq").on(t.conversationId, t.seq)],
);
