// Passwords: argon2id through Bun.password (memory-hard; its defaults: 64 MiB, 2 passes). Only the hash is
// stored. Setting a password ends the person's other sessions: whoever knew the old one is out.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts } from "../../db/schema";
import { AppError, invalid } from "../../lib/errors";
import type { Account } from "../accounts/service";

export const PASSWORD_MIN_LENGTH = 10;
/** argon2 takes any length; a cap keeps a huge body from costing more than a normal one. */
export const PASSWORD_MAX_LENGTH = 1024;

export function checkNewPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw invalid("password", `A password needs at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH) throw invalid("password", `A password may have at most ${PASSWORD_MAX_LENGTH} characters`);
}

/**
 * Each argon2id run takes 64 MiB for a few hundred milliseconds: at most this many at once (the rest wait
 * their turn), so a burst of sign-ins cannot take the server's memory.
 */
const MAX_CONCURRENT = 4;
let running = 0;
const waiting: Array<() => void> = [];

async function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resume) => waiting.push(resume));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export const hashPassword = (password: string) => oneAtATime(() => Bun.password.hash(password, { algorithm: "argon2id" }));
const verifyPassword = (password: string, hash: string) => oneAtATime(() => Bun.password.verify(password, hash));

let dummy: Promise<string> | undefined;
/**
 * Checks a password against a stored hash. With no hash (an unknown email, or a person without a password)
 * it checks against a throwaway hash, so both answers take as long as a wrong password does.
 */
export async function passwordMatches(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    await verifyPassword(password, await (dummy ??= hashPassword("no such person: a throwaway hash")));
    return false;
  }
  try {
    return await verifyPassword(password, hash);
  } catch {
    return false;
  }
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalized) || normalized.length > 254) throw invalid("email", "That is not an email address");
  return normalized;
}

export async function findByEmail(db: Db, email: string): Promise<Account | undefined> {
  return db.query.accounts.findFirst({ where: eq(accounts.email, normalizeEmail(email)) });
}

/** Sets a person's password (and, when given, their email); a taken email is a 409. */
export async function setPassword(db: Db, accountId: string, password: string, email?: string): Promise<Account> {
  checkNewPassword(password);
  const normalized = email === undefined ? undefined : checkEmail(email);
  if (normalized !== undefined) {
    const holder = await findByEmail(db, normalized);
    if (holder && holder.id !== accountId) throw new AppError("conflict", "Another person already signs in with this email", { field: "email" });
  }
  const [row] = await db
    .update(accounts)
    .set({ passwordHash: await hashPassword(password), ...(normalized !== undefined ? { email: normalized } : {}) })
    .where(eq(accounts.id, accountId))
    .returning();
  if (!row) throw new AppError("not_found", "Account not found");
  return row;
}
