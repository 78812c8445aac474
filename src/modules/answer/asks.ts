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
    createdAt: integer("created_at").notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  },
  (t) => [index("asks_account_time").on(t.accountId, t.createdAt), index("asks_brain").on(t.brainId)],
);

export async function recordAsk(
  db: Db,
  ask: { id: string; accountId: string | null; brainId: string; surface: AskSurface; question: string; thin: boolean },
): Promise<void> {
  await db.insert(asks).values({ ...ask, createdAt: Date.now() });
}
