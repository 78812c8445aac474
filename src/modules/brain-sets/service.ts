// Brain sets: a primary brain blended with 1 to 4 advisor brains, all brains the owner can read.
import { and, asc, eq } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { brainSetAdvisors, brainSets } from "../../db/schema";
import { AppError, invalid, notFound } from "../../lib/errors";
import { newId } from "../../lib/secrets";
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
  createdAt: number;
  updatedAt: number;
}

/** The set with its member brains; 404 unless it is the caller's. */
export async function resolveBrainSet(db: RootDb, accountId: string, setId: string): Promise<ResolvedBrainSet> {
  const set = await db.query.brainSets.findFirst({ where: and(eq(brainSets.id, setId), eq(brainSets.accountId, accountId)) });
  if (!set) throw notFound("Brain set");
  const members = await db.query.brainSetAdvisors.findMany({ where: eq(brainSetAdvisors.setId, setId), orderBy: asc(brainSetAdvisors.position) });
  const primary = await readableBrain(db, accountId, set.primaryBrainId);
  const advisors: Brain[] = [];
  for (const m of members) {
    const brain = await readableBrain(db, accountId, m.brainId).catch(() => null);
    if (brain) advisors.push(brain);
  }
  return { id: set.id, name: set.name, primary, advisors, createdAt: set.createdAt, updatedAt: set.updatedAt };
}

const viewOf = (s: ResolvedBrainSet): BrainSetView => ({
  id: s.id,
  name: s.name,
  primary: { id: s.primary.id, name: s.primary.name },
  advisors: s.advisors.map((b) => ({ id: b.id, name: b.name })),
  createdAt: new Date(s.createdAt).toISOString(),
  updatedAt: new Date(s.updatedAt).toISOString(),
});

export async function getBrainSet(db: RootDb, accountId: string, setId: string): Promise<BrainSetView> {
  return viewOf(await resolveBrainSet(db, accountId, setId));
}

export async function listBrainSets(db: RootDb, accountId: string): Promise<BrainSetView[]> {
  const rows = await db.query.brainSets.findMany({ where: eq(brainSets.accountId, accountId), orderBy: asc(brainSets.createdAt) });
  const out: BrainSetView[] = [];
  for (const r of rows) out.push(await getBrainSet(db, accountId, r.id));
  return out;
}

export async function updateBrainSet(db: RootDb, accountId: string, setId: string, input: Partial<BrainSetInput>): Promise<BrainSetView> {
  const current = await resolveBrainSet(db, accountId, setId);
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
  const rows = await db.delete(brainSets).where(and(eq(brainSets.id, setId), eq(brainSets.accountId, accountId))).returning({ id: brainSets.id });
  if (rows.length === 0) throw notFound("Brain set");
}
