// Teams, roles, shares and invitations (issue 56, migration 0026). Re-exported from schema.ts.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts, brainSets, brains, plans } from "./schema";

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const createdAt = () => integer("created_at").notNull().default(now);

export const TEAM_ROLES = ["admin", "member"] as const;
export const BRAIN_ROLES = ["viewer", "editor", "owner"] as const;

export const teams = sqliteTable(
  "teams",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** `team`: the members' v1 questions spend the team's one quota; null: each member's own plan applies. */
    planId: text("plan_id").references(() => plans.id),
    /** The account whose own team this is (every account has one); null for a team made on purpose. */
    personalOf: text("personal_of").references(() => accounts.id, { onDelete: "cascade" }),
    /** Key policy (modules/teams/key-policy.ts): the members' new API keys must be read-only. */
    keyReadOnly: integer("key_read_only", { mode: "boolean" }).notNull().default(false),
    /** Key policy: the members' new API keys must expire within this many days; null = no rule. */
    keyMaxDays: integer("key_max_days"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("teams_personal_of").on(t.personalOf).where(sql`personal_of IS NOT NULL`)],
);

export const teamMembers = sqliteTable(
  "team_members",
  {
    teamId: text("team_id").notNull().references(() => teams.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    role: text("role", { enum: TEAM_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.accountId] }), index("team_members_account").on(t.accountId)],
);

/** Who may do what with a brain: one row per person or team, exactly one of the two set. */
export const brainShares = sqliteTable("brain_shares", {
  brainId: text("brain_id").notNull().references(() => brains.id, { onDelete: "cascade" }),
  accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
  teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
  role: text("role", { enum: BRAIN_ROLES }).notNull(),
  createdAt: createdAt(),
});

export const brainSetShares = sqliteTable("brain_set_shares", {
  setId: text("set_id").notNull().references(() => brainSets.id, { onDelete: "cascade" }),
  accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
  teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
  role: text("role", { enum: BRAIN_ROLES }).notNull(),
  createdAt: createdAt(),
});

export const invitations = sqliteTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    /** SHA-256 of the single-use token, hex; the token itself is shown once, to the inviter. */
    tokenHash: text("token_hash").notNull(),
    teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
    teamRole: text("team_role", { enum: TEAM_ROLES }),
    brainId: text("brain_id").references(() => brains.id, { onDelete: "cascade" }),
    brainRole: text("brain_role", { enum: BRAIN_ROLES }),
    invitedBy: text("invited_by").references(() => accounts.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: integer("accepted_at"),
    acceptedBy: text("accepted_by").references(() => accounts.id, { onDelete: "set null" }),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("invitations_token").on(t.tokenHash), index("invitations_team").on(t.teamId)],
);

/** A Team plan's quota, counted across its members (like usage_counters, keyed by team). */
export const teamUsageCounters = sqliteTable(
  "team_usage_counters",
  {
    teamId: text("team_id").notNull().references(() => teams.id, { onDelete: "cascade" }),
    counter: text("counter").notNull(),
    periodStart: integer("period_start").notNull(),
    used: integer("used").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.counter, t.periodStart] })],
);
