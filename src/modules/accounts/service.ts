// Accounts and their plans. The first account is the owner (admin) of the installation.
import { count, eq } from "drizzle-orm";
import type { PlanId } from "../../config";
import type { Db } from "../../db/client";
import { accounts, teamMembers, teams } from "../../db/schema";
import { newId } from "../../lib/secrets";
import { AppError, notFound } from "../../lib/errors";

export type Account = typeof accounts.$inferSelect;

export interface NewPerson {
  id: string;
  name: string;
  planId: PlanId;
  isAdmin?: boolean;
  email: string | null;
}

/**
 * The writes that make a person: the account and its own team, of which it is the admin (as migration 0026
 * gave every earlier account). For a caller's batch, so a person is never made without their team.
 */
export function personWrites(db: Db, person: NewPerson) {
  const teamId = `team_${person.id}`;
  return [
    db.insert(accounts).values({ id: person.id, name: person.name, planId: person.planId, isAdmin: person.isAdmin ?? false, email: person.email }),
    db.insert(teams).values({ id: teamId, name: person.name, personalOf: person.id }),
    db.insert(teamMembers).values({ teamId, accountId: person.id, role: "admin" }),
  ] as const;
}

/** A person, with their own team; an email is checked and must be free. */
export async function createAccount(db: Db, input: { name: string; planId: PlanId; isAdmin?: boolean; email?: string | null }): Promise<Account> {
  const email = input.email ? input.email.trim().toLowerCase() : null;
  if (email !== null && !/^[^\s@]+@[^\s@]+$/.test(email)) throw new AppError("invalid_request", "email must be an email address", { field: "email" });
  if (email) {
    const taken = await db.query.accounts.findFirst({ where: eq(accounts.email, email) });
    if (taken) throw new AppError("conflict", "An account with this email already exists", { field: "email" });
  }
  const id = newId("acc");
  const writes = personWrites(db, { id, name: input.name, planId: input.planId, isAdmin: input.isAdmin, email });
  // Inside a caller's transaction the writes are already one unit; otherwise one batch makes them one.
  if ("batch" in db) await db.batch(writes);
  else for (const write of writes) await write;
  return getAccount(db, id);
}

export async function getAccount(db: Db, id: string): Promise<Account> {
  const row = await db.query.accounts.findFirst({ where: eq(accounts.id, id) });
  if (!row) throw notFound("Account");
  return row;
}

export async function countAccounts(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(accounts);
  return row?.n ?? 0;
}

/** The admin account, if the installation has one yet. */
export async function findOwner(db: Db): Promise<Account | undefined> {
  return db.query.accounts.findFirst({ where: eq(accounts.isAdmin, true), orderBy: accounts.createdAt });
}

export async function listAccounts(db: Db): Promise<Account[]> {
  return db.query.accounts.findMany({ orderBy: accounts.createdAt });
}

export async function setPlan(db: Db, accountId: string, planId: PlanId): Promise<Account> {
  const [row] = await db.update(accounts).set({ planId }).where(eq(accounts.id, accountId)).returning();
  if (!row) throw notFound("Account");
  return row;
}

export const accountView = (a: Account) => ({
  id: a.id,
  name: a.name,
  plan: a.planId,
  isAdmin: a.isAdmin,
  /** The email the person signs in with (null until one is set). */
  email: a.email,
  createdAt: new Date(a.createdAt).toISOString(),
});
