// Brains: the caller's own knowledge bases, plus public free brains of others (read-only for them).
// A paid public brain (x402) is not free: others reach it only through /api/x402, never with a key.
import { and, asc, eq, getTableColumns, ne, notExists, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { cachedRead } from "../../db/read-cache";
import { brains, paidBrains } from "../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { isUniqueViolation } from "../../lib/db-errors";
import { newId } from "../../lib/secrets";
import { slugify, uniqueSlug } from "../../lib/slug";

export type Brain = typeof brains.$inferSelect;
export type Visibility = Brain["visibility"];

export interface BrainView {
  id: string;
  name: string;
  slug: string;
  emoji: string;
  visibility: Visibility;
  sourceCount: number;
  owned: boolean;
  /** x402 terms when the owner charges per question (see src/modules/x402). */
  paid: { priceAtomic: string; payTo: string } | null;
  createdAt: string;
  updatedAt: string;
}

// brains.source_count is kept by triggers on sources (migration 0015): counting the sources per request
// cost a count(*) over each brain's index every time the database changed, i.e. every request of an import.
const sourceCount = brains.sourceCount;
// Written out in full: drizzle renders bare column names inside sql``, and a bare "id" would bind to sources.
const paidPrice = sql<number | null>`(select "price_atomic" from "paid_brains" where "paid_brains"."brain_id" = "brains"."id")`;
const paidPayTo = sql<string | null>`(select "pay_to" from "paid_brains" where "paid_brains"."brain_id" = "brains"."id")`;
const extras = { sourceCount, paidPrice, paidPayTo };
type Extras = { sourceCount: number; paidPrice: number | null; paidPayTo: string | null };

function view(row: Brain & Extras, accountId: string): BrainView {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    emoji: row.emoji,
    visibility: row.visibility,
    sourceCount: Number(row.sourceCount),
    owned: row.accountId === accountId,
    paid: row.paidPrice !== null && row.paidPayTo !== null ? { priceAtomic: String(row.paidPrice), payTo: row.paidPayTo } : null,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

const isPaid = () => sql`(select 1 from "paid_brains" where "paid_brains"."brain_id" = "brains"."id")`;
const readable = (accountId: string) =>
  or(eq(brains.accountId, accountId), and(eq(brains.visibility, "public"), notExists(isPaid())));

/** `scope: "own"` for the v1 list; `"accessible"` adds public brains of other accounts. */
export async function listBrains(db: Db, accountId: string, scope: "own" | "accessible"): Promise<readonly BrainView[]> {
  // Prepared once per database (db/prepared.ts): the list is on the hot path of every client. Flat columns
  // and one join for the price: nested selections and object spreads per row showed in profiles.
  const query = prepared(db, `brains.list.${scope}`, (d) => {
    const caller = sql.placeholder("accountId") as unknown as string;
    return d
      .select({ ...getTableColumns(brains), paidPrice: paidBrains.priceAtomic, paidPayTo: paidBrains.payTo })
      .from(brains)
      .leftJoin(paidBrains, eq(paidBrains.brainId, brains.id))
      .where(scope === "own" ? eq(brains.accountId, caller) : readable(caller))
      .orderBy(asc(brains.createdAt), asc(brains.id))
      .prepare();
  });
  // Kept while the database is unchanged (db/read-cache.ts): shared by callers, so frozen.
  return cachedRead(db, `brains.list.${scope}.${accountId}`, async () => {
    const rows = await query.execute({ accountId });
    return Object.freeze(
      rows.map((row) => {
        const brain = view(row, accountId);
        if (brain.paid) Object.freeze(brain.paid);
        return Object.freeze(brain);
      }),
    );
  });
}

/** A brain the caller may read (ask, context, list); anything else is indistinguishable from absent. */
export async function readableBrain(db: Db, accountId: string, brainId: string): Promise<Brain> {
  const row = await db.query.brains.findFirst({ where: and(eq(brains.id, brainId), readable(accountId)) });
  if (!row) throw notFound("Brain");
  return row;
}

/** A brain the caller owns; a public brain of someone else is 403, anything else 404. */
export async function ownedBrain(db: Db, accountId: string, brainId: string): Promise<Brain> {
  const row = await readableBrain(db, accountId, brainId);
  if (row.accountId !== accountId) throw new AppError("forbidden", "Only the brain's owner can change it");
  return row;
}

export async function getBrainView(db: Db, accountId: string, brainId: string): Promise<BrainView> {
  const brain = await readableBrain(db, accountId, brainId);
  const [row] = await db.select(extras).from(brains).where(eq(brains.id, brain.id));
  return view({ ...brain, sourceCount: row?.sourceCount ?? 0, paidPrice: row?.paidPrice ?? null, paidPayTo: row?.paidPayTo ?? null }, accountId);
}

async function assertNameFree(db: Db, accountId: string, name: string, exceptId?: string) {
  const clash = await db.query.brains.findFirst({
    where: and(
      eq(brains.accountId, accountId),
      sql`lower(${brains.name}) = lower(${name})`,
      exceptId ? ne(brains.id, exceptId) : undefined,
    ),
  });
  if (clash) throw new AppError("conflict", `A brain named "${name}" already exists`, { field: "name" });
}

async function freeSlug(db: Db, accountId: string, name: string, exceptId?: string) {
  const rows = await db
    .select({ slug: brains.slug })
    .from(brains)
    .where(and(eq(brains.accountId, accountId), exceptId ? ne(brains.id, exceptId) : undefined));
  const taken = new Set(rows.map((r) => r.slug));
  return uniqueSlug(slugify(name, "brain"), (slug) => taken.has(slug));
}

export async function createBrain(
  db: Db,
  accountId: string,
  input: { name: string; emoji?: string; visibility?: Visibility },
): Promise<BrainView> {
  const name = input.name.trim();
  await assertNameFree(db, accountId, name);
  const id = newId("brn");
  try {
    await db.insert(brains).values({
      id,
      accountId,
      name,
      slug: await freeSlug(db, accountId, name),
      emoji: input.emoji ?? "🧠",
      visibility: input.visibility ?? "private",
    });
  } catch (e) {
    // A concurrent create took the same slug between our check and insert.
    if (isUniqueViolation(e)) throw new AppError("conflict", `A brain named "${name}" already exists`, { field: "name" });
    throw e;
  }
  return getBrainView(db, accountId, id);
}

export async function updateBrain(
  db: Db,
  accountId: string,
  brainId: string,
  input: { name?: string; emoji?: string; visibility?: Visibility },
): Promise<BrainView> {
  await ownedBrain(db, accountId, brainId);
  const changes: Partial<Brain> = { updatedAt: Date.now() };
  if (input.name !== undefined) {
    changes.name = input.name.trim();
    await assertNameFree(db, accountId, changes.name, brainId);
    changes.slug = await freeSlug(db, accountId, changes.name, brainId);
  }
  if (input.emoji !== undefined) changes.emoji = input.emoji;
  if (input.visibility !== undefined) changes.visibility = input.visibility;
  try {
    await db.update(brains).set(changes).where(eq(brains.id, brainId));
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("conflict", `A brain named "${changes.name}" already exists`, { field: "name" });
    throw e;
  }
  return getBrainView(db, accountId, brainId);
}

/** Deletes the brain with its sources, pages and vectors (foreign keys cascade). */
export async function deleteBrain(db: Db, accountId: string, brainId: string): Promise<void> {
  await ownedBrain(db, accountId, brainId);
  await db.delete(brains).where(eq(brains.id, brainId));
}
