// The asks table (migration 0005): one row per answered question, so an ask `id` names something and the
// plans module can count asks per account, surface and day.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";

export type AskSurface = "v1" | "unversioned" | "brain-set" | "x402" | "mcp";

export const asks = sqliteTable(
  "asks",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id"),
    brainId: text("brain_id").notNull(),
    surface: text("surface").$type<AskSurface>().notNull(),
    question: text("question").notNull(),
    thin: integer("thin", { mode: "boolean" }).notNull(),
    /** The answer as written ([[ref]] citations), so the history re-opens it (migration 0012; null before). */
    answerMd: text("answer_md"),
    citations: text("citations", { mode: "json" }).$type<StoredCitation[]>(),
    /** The brain set asked, for brain-set asks (the brain is its primary). */
    setId: text("set_id"),
    createdAt: integer("created_at").notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  },
  (t) => [index("asks_account_time").on(t.accountId, t.createdAt), index("asks_brain").on(t.brainId), index("asks_set_time").on(t.setId, t.createdAt)],
);

/** A cited page as the history keeps it: enough to show the answer's links again. */
export interface StoredCitation {
  brain: { id: string; name: string; kind: string };
  slug: string;
  ref: string;
  title: string;
}

export async function recordAsk(
  db: Db,
  ask: {
    id: string;
    accountId: string | null;
    brainId: string;
    setId?: string | null;
    surface: AskSurface;
    question: string;
    thin: boolean;
    answerMd: string;
    citations: StoredCitation[];
  },
): Promise<void> {
  await db.insert(asks).values({ ...ask, createdAt: Date.now() });
}
