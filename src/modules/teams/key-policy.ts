// A team's key policy: its admins may require the API keys its members make to be read-only and to expire
// within a number of days. A person in several teams gets the strictest of them (read-only if any team says
// so, the shortest expiry). Checked when a key is made; keys made before a rule keep working as they are.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { teamMembers, teams } from "../../db/schema";
import { AppError, invalid } from "../../lib/errors";

export interface KeyPolicy {
  readOnly: boolean;
  maxDays: number | null;
}

const DAY_MS = 86_400_000;

/** The strictest key policy of the teams the person belongs to (their own team has none to obey). */
export async function keyPolicyOf(db: Db, accountId: string): Promise<KeyPolicy & { teams: string[] }> {
  const rows = await db
    .select({ name: teams.name, readOnly: teams.keyReadOnly, maxDays: teams.keyMaxDays })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teamMembers.accountId, accountId), isNull(teams.personalOf)));
  const ruling = rows.filter((r) => r.readOnly || r.maxDays !== null);
  const days = ruling.map((r) => r.maxDays).filter((d): d is number => d !== null);
  return { readOnly: ruling.some((r) => r.readOnly), maxDays: days.length ? Math.min(...days) : null, teams: ruling.map((r) => r.name) };
}

/** Refuses a new key the person's teams do not allow, saying which rule and which teams. */
export async function checkKeyPolicy(db: Db, accountId: string, key: { readOnly: boolean; expiresAt: number | null }, now = Date.now()): Promise<void> {
  const policy = await keyPolicyOf(db, accountId);
  const by = policy.teams.join(", ");
  if (policy.readOnly && !key.readOnly)
    throw new AppError("forbidden", `Your team's key policy (${by}) allows only read-only keys: create it with readOnly: true`, { field: "readOnly", policy: { readOnly: true } });
  if (policy.maxDays !== null && (key.expiresAt === null || key.expiresAt > now + policy.maxDays * DAY_MS))
    throw invalid("expiresAt", `Your team's key policy (${by}) requires keys to expire within ${policy.maxDays} days: give an expiresAt before then`);
}
