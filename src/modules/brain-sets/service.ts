// Brain sets: a primary brain blended with 1 to 4 advisor brains, all brains the owner can read.
// A set is shared like a brain (viewer asks it, editor changes its members, owner shares and deletes it);
// its member brains are always resolved by the caller's own roles, so sharing a set never opens a brain.
import { asc, eq, sql } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { brainSetAdvisors, brainSets } from "../../db/schema";
import { AppError, invalid, notFound } from "../../lib/errors";
import { newId } from "../../lib/secrets";
import { roleAtLeast, shareRank, type BrainRole } from "../brains/access";
import { readableBrain, type Brain } from "../brains/service";

export interface BrainSetInput {
  name: string;
  primaryBrainId: string;
  advisorBrainIds: string[];
}

export interface BrainSetView {
  id: string;
  name: string;
  primary: { id: string; name: string };
  advisors: Array<{ id: string; name: string }>;
  /** The caller's role on the set (issue 56). */
  role: BrainRole;
  createdAt: string;
  updatedAt: string;
}

/** Checks the members: distinct, the primary not among the advisors, every brain readable (else 404). */
async function checkMembers(db: RootDb, accountId: string, input: Pick<BrainSetInput, "primaryBrainId" | "advisorBrainIds">) {
  if (new Set(input.advisorBrainIds).size !== input.advisorBrainIds.length) throw invalid("advisorBrainIds", "advisorBrainIds must be distinct");
  if (input.advisorBrainIds.includes(input.primaryBrainId)) throw invalid("advisorBrainIds", "The primary brain cannot also be an advisor");
  const brainOr404 = async (id: string, role: string) => {
    try {
      return await readableBrain(db, accountId, id);
    } catch (e) {
      throw e instanceof AppError && e.code === "not_found" ? new AppError("not_found", `${role} brain ${id} not found`, { field: role === "Primary" ? "primaryBrainId" : "advisorBrainIds" }) : e;
    }
  };
  const primary = await brainOr404(input.primaryBrainId, "Primary");
  const advisors: Brain[] = [];
  for (const id of input.advisorBrainIds) advisors.push(await brainOr404(id, "Advisor"));
  return { primary, advisors };
}

export async function createBrainSet(db: RootDb, accountId: string, input: BrainSetInput): Promise<BrainSetView> {
  await checkMembers(db, accountId, input);
  const id = newId("set");
  await db.batch([
    db.insert(brainSets).values({ id, accountId, name: input.name.trim(), primaryBrainId: input.primaryBrainId }),
    ...input.advisorBrainIds.map((brainId, position) => db.insert(brainSetAdvisors).values({ setId: id, brainId, position })),
  ] as unknown as Parameters<RootDb["batch"]>[0]);
  return getBrainSet(db, accountId, id);
}

export interface ResolvedBrainSet {
  id: string;
  name: string;
  primary: Brain;
  /** Advisors the owner can still read (a brain made private by its owner since drops out). */
  advisors: Brain[];
  role: BrainRole;
  createdAt: number;
  updatedAt: number;
}

const ROLES: BrainRole[] = ["viewer", "editor", "owner"];

/** The set row and the caller's role on it; 404 without one, 403 `forbidden` below `needed`. */
export async function brainSetWithRole(db: RootDb, accountId: string, setId: string, needed: BrainRole = "viewer") {
  const [row] = await db
    .select({ set: brainSets, rank: shareRank("brain_set_shares", "set_id", sql`"brain_sets"."id"`, accountId) })
    .from(brainSets)
    .where(eq(brainSets.id, setId));
  const role = row && row.rank > 0 ? ROLES[Math.min(row.rank, 3) - 1]! : null;
  if (!row || !role) throw notFound("Brain set");
  if (!roleAtLeast(role, needed)) throw new AppError("forbidden", `Your role on this brain set is ${role}: it needs ${needed}`, { role, required: needed });
  return { set: row.set, role };
}

/** The set with its member brains as the caller reads them; 404 unless the caller has a role on it. */
export async function resolveBrainSet(db: RootDb, accountId: string, setId: string, needed: BrainRole = "viewer"): Promise<ResolvedBrainSet> {
  const { set, role } = await brainSetWithRole(db, accountId, setId, needed);
  const members = await db.query.brainSetAdvisors.findMany({ where: eq(brainSetAdvisors.setId, setId), orderBy: asc(brainSetAdvisors.position) });
  const primary = await readableBrain(db, accountId, set.primaryBrainId);
  const advisors: Brain[] = [];
  for (const m of members) {
    const brain = await readableBrain(db, accountId, m.brainId).catch(() => null);
    if (brain) advisors.push(brain);
  }
  return { id: set.id, name: set.name, primary, advisors, role, createdAt: set.createdAt, updatedAt: set.updatedAt };
}

const viewOf = (s: ResolvedBrainSet): BrainSetView => ({
  id: s.id,
  name: s.name,
  primary: { id: s.primary.id, name: s.primary.name },
  advisors: s.advisors.map((b) => ({ id: b.id, name: b.name })),
  role: s.role,
  createdAt: new Date(s.createdAt).toISOString(),
  updatedAt: new Date(s.updatedAt).toISOString(),
});

export async function getBrainSet(db: RootDb, accountId: string, setId: string): Promise<BrainSetView> {
  return viewOf(await resolveBrainSet(db, accountId, setId));
}

/** Sets the caller has a role on (their own and those shared with them or their teams). */
export async function listBrainSets(db: RootDb, accountId: string): Promise<BrainSetView[]> {
  const rows = await db
    .select({ id: brainSets.id })
    .from(brainSets)
    .where(sql`${shareRank("brain_set_shares", "set_id", sql`"brain_sets"."id"`, accountId)} > 0`)
    .orderBy(asc(brainSets.createdAt));
  const out: BrainSetView[] = [];
  // A set whose primary brain the caller can no longer read is left out (asking it would be 404).
  for (const r of rows) {
    const view = await getBrainSet(db, accountId, r.id).catch((e) => (e instanceof AppError && e.code === "not_found" ? null : Promise.reject(e)));
    if (view) out.push(view);
  }
  return out;
}

export async function updateBrainSet(db: RootDb, accountId: string, setId: string, input: Partial<BrainSetInput>): Promise<BrainSetView> {
  const current = await resolveBrainSet(db, accountId, setId, "editor");
  const next = {
    primaryBrainId: input.primaryBrainId ?? current.primary.id,
    advisorBrainIds: input.advisorBrainIds ?? current.advisors.map((a) => a.id),
  };
  await checkMembers(db, accountId, next);
  await db.batch([
    db
      .update(brainSets)
      .set({ name: input.name?.trim() ?? current.name, primaryBrainId: next.primaryBrainId, updatedAt: Date.now() })
      .where(eq(brainSets.id, setId)),
    db.delete(brainSetAdvisors).where(eq(brainSetAdvisors.setId, setId)),
    ...next.advisorBrainIds.map((brainId, position) => db.insert(brainSetAdvisors).values({ setId, brainId, position })),
  ] as unknown as Parameters<RootDb["batch"]>[0]);
  return getBrainSet(db, accountId, setId);
}

export async function deleteBrainSet(db: RootDb, accountId: string, setId: string): Promise<void> {
  await brainSetWithRole(db, accountId, setId, "owner");
  const rows = await db.delete(brainSets).where(eq(brainSets.id, setId)).returning({ id: brainSets.id });
  if (rows.length === 0) throw notFound("Brain set");
}
