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

export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

let dummy: Promise<string> | undefined;
/**
 * Checks a password against a stored hash. With no hash (an unknown email, or a person without a password)
 * it checks against a throwaway hash, so both answers take as long as a wrong password does.
 */
export async function passwordMatches(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    await Bun.password.verify(password, await (dummy ??= hashPassword("no such person: a throwaway hash")));
    return false;
  }
  try {
    return await Bun.password.verify(password, hash);
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
