// Brains: the knowledge bases the caller has a role on (their own, or shared with them or a team of theirs,
// brains/access.ts), plus public free brains of others (viewer for them). A paid public brain (x402) is
// not free: others reach it only through /api/x402, never with a key.
import { and, asc, eq, getTableColumns, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { cachedRead } from "../../db/read-cache";
import { brainShares, brains, paidBrains, teamMembers } from "../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { isUniqueViolation } from "../../lib/db-errors";
import { newId } from "../../lib/secrets";
import { slugify, uniqueSlug } from "../../lib/slug";
import { brainAccess, brainWithRole, roleFrom, shareRank, type Brain, type BrainRole } from "./access";

export type { Brain, BrainRole } from "./access";
export type Visibility = Brain["visibility"];

export interface BrainView {
  id: string;
  name: string;
  slug: string;
  emoji: string;
  visibility: Visibility;
  sourceCount: number;
  owned: boolean;
  /** The caller's role on the brain (issue 56): viewer, editor or owner. */
  role: BrainRole;
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

function view(row: Brain & Extras, role: BrainRole): BrainView {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    emoji: row.emoji,
    visibility: row.visibility,
    sourceCount: Number(row.sourceCount),
    owned: role === "owner",
    role,
    paid: row.paidPrice !== null && row.paidPayTo !== null ? { priceAtomic: String(row.paidPrice), payTo: row.paidPayTo } : null,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** `scope: "own"` for the v1 list (brains the caller has a share on, directly or through a team);
 * `"accessible"` adds public free brains of other accounts. */
export async function listBrains(db: Db, accountId: string, scope: "own" | "accessible"): Promise<readonly BrainView[]> {
  // Prepared once per database (db/prepared.ts): the list is on the hot path of every client. Flat columns
  // and one join for the price: nested selections and object spreads per row showed in profiles.
  const query = prepared(db, `brains.list.${scope}`, (d) => {
    const caller = sql.placeholder("accountId");
    const rank = shareRank("brain_shares", "brain_id", sql`"brains"."id"`, caller);
    const visible =
      scope === "own"
        ? sql`${rank} > 0`
        : sql`(${rank} > 0 or (${brains.visibility} = 'public' and ${paidBrains.brainId} is null))`;
    return d
      .select({ ...getTableColumns(brains), paidPrice: paidBrains.priceAtomic, paidPayTo: paidBrains.payTo, rank })
      .from(brains)
      .leftJoin(paidBrains, eq(paidBrains.brainId, brains.id))
      .where(visible)
      .orderBy(asc(brains.createdAt), asc(brains.id))
      .prepare();
  });
  // Kept while the database is unchanged (db/read-cache.ts): shared by callers, so frozen.
  return cachedRead(db, `brains.list.${scope}.${accountId}`, async () => {
    const rows = await query.execute({ accountId });
    return Object.freeze(
      rows.map((row) => {
        const brain = view(row, roleFrom(row.rank, row, row.paidPrice !== null)!);
        if (brain.paid) Object.freeze(brain.paid);
        return Object.freeze(brain);
      }),
    );
  });
}

/** A brain the caller may read (ask, context, list, pages, graph); anything else is indistinguishable from absent. */
export async function readableBrain(db: Db, accountId: string, brainId: string): Promise<Brain> {
  return (await brainAccess(db, accountId, brainId)).brain;
}

/** A brain whose sources and pages the caller may change (editor or owner); a viewer gets 403, others 404. */
export async function editableBrain(db: Db, accountId: string, brainId: string): Promise<Brain> {
  return brainWithRole(db, accountId, brainId, "editor");
}

/** A brain the caller owns (share, settings, paid terms, delete); a lower role is 403, no role 404. */
export async function ownedBrain(db: Db, accountId: string, brainId: string): Promise<Brain> {
  return brainWithRole(db, accountId, brainId, "owner");
}

export async function getBrainView(db: Db, accountId: string, brainId: string): Promise<BrainView> {
  const { brain, role } = await brainAccess(db, accountId, brainId);
  const [row] = await db.select(extras).from(brains).where(eq(brains.id, brain.id));
  return view({ ...brain, sourceCount: row?.sourceCount ?? 0, paidPrice: row?.paidPrice ?? null, paidPayTo: row?.paidPayTo ?? null }, role);
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
  input: { name: string; emoji?: string; visibility?: Visibility; teamId?: string },
): Promise<BrainView> {
  const name = input.name.trim();
  if (input.teamId !== undefined) await assertTeamMember(db, accountId, input.teamId);
  await assertNameFree(db, accountId, name);
  const id = newId("brn");
  try {
    // Its maker's owner share is written by a trigger (migration 0026); a team's brain is the team's too.
    await db.insert(brains).values({
      id,
      accountId,
      name,
      slug: await freeSlug(db, accountId, name),
      emoji: input.emoji ?? "🧠",
      visibility: input.visibility ?? "private",
    });
    if (input.teamId !== undefined) await db.insert(brainShares).values({ brainId: id, teamId: input.teamId, role: "owner" });
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

/** A brain made for a team needs its maker in the team; any other team id is 404, like a missing one. */
async function assertTeamMember(db: Db, accountId: string, teamId: string) {
  const member = await db.query.teamMembers.findFirst({ where: and(eq(teamMembers.teamId, teamId), eq(teamMembers.accountId, accountId)) });
  if (!member) throw new AppError("not_found", "Team not found", { field: "teamId" });
}

/** Deletes the brain with its sources, pages and vectors (foreign keys cascade). */
export async function deleteBrain(db: Db, accountId: string, brainId: string): Promise<void> {
  await ownedBrain(db, accountId, brainId);
  await db.delete(brains).where(eq(brains.id, brainId));
}
