// Access (modules/oauth, people, sso, audit): OAuth clients, grants, codes and tokens; person sessions,
// password links, single sign-on identities and flows; the audit log. Re-exported from schema.ts.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./schema";

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const createdAt = () => integer("created_at").notNull().default(now);

/** OAuth clients (connectors such as MCP hosts), registered dynamically (RFC 7591). */
export const oauthClients = sqliteTable("oauth_clients", {
  /** The client_id. */
  id: text("id").primaryKey(),
  /** SHA-256 of the client secret, hex; null for public clients (token_endpoint_auth_method `none`). */
  secretHash: text("secret_hash"),
  authMethod: text("auth_method", { enum: ["none", "client_secret_basic", "client_secret_post"] }).notNull(),
  name: text("name").notNull(),
  /** Registered redirect URIs, matched exactly. */
  redirectUris: text("redirect_uris", { mode: "json" }).$type<string[]>().notNull(),
  grantTypes: text("grant_types", { mode: "json" }).$type<string[]>().notNull(),
  /** The other registered metadata (client_uri, logo_uri, ...), echoed back as registered. */
  metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});

/** One approved authorization of a client by an account: its tokens live and die with it. */
export const oauthGrants = sqliteTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    scope: text("scope").notNull(),
    /** RFC 8707 resource the client asked for (informational: tokens are good for the whole API). */
    resource: text("resource"),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("oauth_grants_account").on(t.accountId)],
);

/** Authorization codes: stored hashed, single use (used_at set once), short-lived, bound to client + redirect + PKCE. */
export const oauthCodes = sqliteTable("oauth_codes", {
  hash: text("hash").primaryKey(),
  clientId: text("client_id")
    .notNull()
    .references(() => oauthClients.id, { onDelete: "cascade" }),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  redirectUri: text("redirect_uri").notNull(),
  codeChallenge: text("code_challenge").notNull(),
  scope: text("scope").notNull(),
  resource: text("resource"),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
  /** The grant its exchange created: revoked if the code is ever presented again. */
  grantId: text("grant_id"),
});

/** Access (`bb_at_`) and refresh (`bb_rt_`) tokens, stored as SHA-256 hashes. */
export const oauthTokens = sqliteTable(
  "oauth_tokens",
  {
    hash: text("hash").primaryKey(),
    kind: text("kind", { enum: ["access", "refresh"] }).notNull(),
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    /** `rotated` (a refresh token exchanged once: presenting it again revokes the grant) or `revoked`. */
    revokedReason: text("revoked_reason"),
    createdAt: createdAt(),
  },
  (t) => [index("oauth_tokens_grant").on(t.grantId)],
);

/** A person's session (modules/people/sessions.ts): a cookie's secret, stored only as its SHA-256. */
export const webSessions = sqliteTable(
  "web_sessions",
  {
    hash: text("hash").primaryKey(),
    /** Public id (never the secret): names the session in lists and the audit log. */
    id: text("id").notNull(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** How it was opened: a password, single sign-on, or an API key handed to the browser (credentialId). */
    via: text("via").$type<SessionMethod | "access_token">().notNull(),
    credentialId: text("credential_id"),
    createdAt: createdAt(),
    /** Last request seen (coarse, at most one write a minute): the idle expiry counts from it. */
    lastSeenAt: integer("last_seen_at").notNull(),
    /** The absolute expiry. */
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    ip: text("ip"),
  },
  (t) => [index("web_sessions_account").on(t.accountId), uniqueIndex("web_sessions_id").on(t.id)],
);

export type SessionMethod = "password" | "oidc" | "api_key";

/** Single-use links that let a person set a password: the first-start setup link and admin reset links. */
export const passwordLinks = sqliteTable(
  "password_links",
  {
    hash: text("hash").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["setup", "reset"] }).notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("password_links_account").on(t.accountId)],
);

/** Who did what to access (modules/audit): sign-ins, invitations, roles, shares, keys, tokens, deactivations. */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    /** A dotted name, e.g. `session.signed_in`, `key.created`, `share.changed` (modules/audit/actions.ts). */
    action: text("action").notNull(),
    /** The account that acted; null for an anonymous attempt (a failed sign-in names its email in details). */
    actorId: text("actor_id"),
    actorLabel: text("actor_label"),
    /** The team whose admins may read the event. */
    teamId: text("team_id"),
    targetKind: text("target_kind"),
    targetId: text("target_id"),
    ip: text("ip"),
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [index("audit_events_at").on(t.at), index("audit_events_team_at").on(t.teamId, t.at), index("audit_events_actor_at").on(t.actorId, t.at)],
);

/** A person's identity at a single sign-on provider (modules/sso): the provider's (issuer, subject) → account. */
export const ssoIdentities = sqliteTable(
  "sso_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The email the provider named at the last sign-in (lower-cased). */
    email: text("email"),
    /** The role the claim mapping gave at the last sign-in: `admin`, `member`, or null (no mapping set). */
    role: text("role", { enum: ["admin", "member"] }),
    /** True while the person is a server admin because the mapping made them one (so leaving the group takes it back). */
    adminGranted: integer("admin_granted", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    lastSignInAt: integer("last_sign_in_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index("sso_identities_account").on(t.accountId)],
);

/** A single sign-on in progress: state, nonce and PKCE verifier kept here, the browser holding only a random key. */
export const ssoFlows = sqliteTable("sso_flows", {
  /** SHA-256 of the flow cookie's secret. */
  hash: text("hash").primaryKey(),
  provider: text("provider").notNull(),
  state: text("state").notNull(),
  nonce: text("nonce").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  /** A path on this server to land on after sign-in. */
  returnTo: text("return_to").notNull(),
  expiresAt: integer("expires_at").notNull(),
});
