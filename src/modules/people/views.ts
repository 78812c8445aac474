import type { Account } from "../accounts/service";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A person as the API shows them: never the password hash. */
export const personOf = (a: Account) => ({
  id: a.id,
  name: a.name,
  email: a.email,
  isAdmin: a.isAdmin,
  hasPassword: a.passwordHash !== null,
  deactivatedAt: iso(a.deactivatedAt),
  createdAt: iso(a.createdAt)!,
});
