// The database schema. drizzle-kit turns it into migrations/ (`npx drizzle-kit generate`); FTS5 and
// triggers are hand-written migrations beside them. Times are unix milliseconds.
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const createdAt = () => integer("created_at").notNull().default(now);
const updatedAt = () => integer("updated_at").notNull().default(now);

/** Plans are data; their numbers (bank, quota) come from configuration. */
export const plans = sqliteTable("plans", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** `bank`: lifetime question bank; `quota`: questions per period. */
  metering: text("metering", { enum: ["bank", "quota"] }).notNull(),
  brainSets: integer("brain_sets", { mode: "boolean" }).notNull(),
});

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  planId: text("plan_id")
    .notNull()
    .references(() => plans.id),
  isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
  /** Lower-cased; unique; null for an account made before people signed in (migration 0024). */
  email: text("email"),
  /** argon2id (Bun.password) of the person's password; null until one is set (migration 0025). */
  passwordHash: text("password_hash"),
  /** Set while the person is deactivated: every credential of theirs answers 401. */
  deactivatedAt: integer("deactivated_at"),
  createdAt: createdAt(),
}, (t) => [uniqueIndex("accounts_email").on(t.email)]);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the full key, hex. The key itself is never stored. */
    hash: text("hash").notNull(),
    /** Prefix plus the last 4 characters, enough to recognise a key in a list. */
    hint: text("hint").notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
    /** Read-only: ask, context and reads only (migration 0026). */
    readOnly: integer("read_only", { mode: "boolean" }).notNull().default(false),
    /** After this (unix ms) the key answers 401; null: never expires. */
    expiresAt: integer("expires_at"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.hash), index("api_keys_account").on(t.accountId)],
);

export const brains = sqliteTable(
  "brains",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    emoji: text("emoji").notNull().default("🧠"),
    visibility: text("visibility", { enum: ["private", "public"] }).notNull().default("private"),
    /** Sources of the brain, kept by triggers on sources insert/delete (migration 0015). */
    sourceCount: integer("source_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("brains_account_slug").on(t.accountId, t.slug)],
);

export const sources = sqliteTable(
  "sources",
  {
    id: text("id").primaryKey(),
    brainId: text("brain_id")
      .notNull()
      .references(() => brains.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["link", "text", "note", "file"] }).notNull(),
    title: text("title").notNull(),
    status: text("status", { enum: ["pending", "processing", "ready", "failed"] })
      .notNull()
      .default("pending"),
    externalId: text("external_id"),
    /** Link to fetch (link) or the origin the caller gave (text). */
    url: text("url"),
    /** Text/note body as given; for links and files, the extracted markdown once processed. */
    content: text("content"),
    filename: text("filename"),
    contentType: text("content_type"),
    size: integer("size"),
    storageKey: text("storage_key"),
    uploadedAt: integer("uploaded_at"),
    error: text("error"),
    pageCount: integer("page_count").notNull().default(0),
    /** Bumped on every content change, so a job for an older version can tell it is stale. */
    revision: integer("revision").notNull().default(1),
    /** The connector that made and keeps this source in sync (modules/connectors); null for a source added by hand. */
    connectorId: text("connector_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("sources_brain_external").on(t.brainId, t.externalId), index("sources_brain").on(t.brainId)],
);

/** A source row as read. */
export type Source = typeof sources.$inferSelect;

export const pages = sqliteTable(
  "pages",
  {
    /** Integer key: FTS5 external content and vectors are keyed by it. */
    id: integer("id").primaryKey({ autoIncrement: true }),
    brainId: text("brain_id")
      .notNull()
      .references(() => brains.id, { onDelete: "cascade" }),
    /** Null for concept pages (they gather many sources). */
    sourceId: text("source_id").references(() => sources.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["source", "note", "concept"] }).notNull().default("source"),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    markdown: text("markdown").notNull(),
    /** What the full-text index reads (searchTextOf(markdown)); null indexes the markdown. Migration 0013. */
    searchText: text("search_text"),
    position: integer("position").notNull().default(0),
    /** The owner edited it: reprocessing no longer overwrites it (sourceChanged records that it would have). */
    edited: integer("edited", { mode: "boolean" }).notNull().default(false),
    sourceChanged: integer("source_changed", { mode: "boolean" }).notNull().default(false),
    revision: integer("revision").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("pages_brain_slug").on(t.brainId, t.slug),
    index("pages_source").on(t.sourceId),
    // Partial: source pages, most of a brain, are listed by kind through pages_brain_slug (migration 0021).
    index("pages_brain_concept").on(t.brainId, t.slug).where(sql`kind = 'concept'`),
    index("pages_brain_note").on(t.brainId, t.slug).where(sql`kind = 'note'`),
  ],
);

/** Wikilinks as graph edges, re-derived whenever a page's markdown is written (migration 0008). */
export const pageLinks = sqliteTable(
  "page_links",
  {
    fromPageId: integer("from_page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    brainId: text("brain_id").notNull(),
    toSlug: text("to_slug").notNull(),
  },
  (t) => [primaryKey({ columns: [t.fromPageId, t.toSlug] }), index("page_links_target").on(t.brainId, t.toSlug)],
);

/** Every saved state of a page; `author` is `source` (synthesis) or `owner` (an edit). */
export const pageRevisions = sqliteTable(
  "page_revisions",
  {
    pageId: integer("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    title: text("title").notNull(),
    markdown: text("markdown").notNull(),
    author: text("author", { enum: ["source", "owner"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.revision] })],
);

/** Where a concept (its page slug) is named: one row per source page sentence. */
export const conceptMentions = sqliteTable(
  "concept_mentions",
  {
    brainId: text("brain_id").notNull(),
    concept: text("concept").notNull(),
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    pageSlug: text("page_slug").notNull(),
    surface: text("surface").notNull(),
    sentence: text("sentence").notNull(),
    weight: real("weight").notNull().default(1),
  },
  (t) => [
    index("concept_mentions_concept").on(t.brainId, t.concept),
    index("concept_mentions_source").on(t.sourceId),
  ],
);

/**
 * A source's lone concepts: those it alone names (no page, not linked), with their mention sentences as JSON
 * (lone.ts). One appended row per source, a new `id` each time it is written (AUTOINCREMENT: never reused);
 * merged (its concepts in `concept_seen`) once its id is at most its brain's `brain_numbers.loneMergedThrough`.
 */
export const conceptLone = sqliteTable(
  "concept_lone",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sourceId: text("source_id")
      .notNull()
      .unique()
      .references(() => sources.id, { onDelete: "cascade" }),
    brainId: text("brain_id").notNull(),
    /** [[concept, surface or null, sentence index, weight], ...] (lone.ts) */
    mentions: text("mentions").notNull(),
    /** [[page slug, sentence], ...]: each sentence once, however many lone concepts it names. */
    sentences: text("sentences").notNull().default("[]"),
  },
  (t) => [index("concept_lone_brain").on(t.brainId)],
);

/**
 * A small integer per brain (a trigger gives one to each new brain; never reused), for the keys of indexes
 * too large to repeat the brain's id in every row (`concept_seen`, migration 0022).
 */
export const brainNumbers = sqliteTable("brain_numbers", {
  number: integer("number").primaryKey({ autoIncrement: true }),
  brainId: text("brain_id")
    .notNull()
    .unique()
    .references(() => brains.id, { onDelete: "cascade" }),
  /** The highest `concept_lone.id` of the brain merged: rows are merged in id order, which is commit order (migration 0023). */
  loneMergedThrough: integer("lone_merged_through").notNull().default(0),
});

/** Which lone row (`concept_lone.id`) named a lone concept (merged in sorted batches): a second source finds it here. */
export const conceptSeen = sqliteTable(
  "concept_seen",
  {
    brain: integer("brain")
      .notNull()
      .references(() => brainNumbers.number, { onDelete: "cascade" }),
    concept: text("concept").notNull(),
    lone: integer("lone").notNull(),
  },
  (t) => [primaryKey({ columns: [t.brain, t.concept, t.lone] })],
);

/** Concepts whose page must be re-derived (written in the batch that touched them: durable across kill -9). */
export const conceptDirty = sqliteTable(
  "concept_dirty",
  {
    brainId: text("brain_id")
      .notNull()
      .references(() => brains.id, { onDelete: "cascade" }),
    concept: text("concept").notNull(),
  },
  (t) => [primaryKey({ columns: [t.brainId, t.concept] })],
);

/** Alias keys of concepts ("curie" → "marie-curie"), so later sources join an existing concept. */
export const conceptAliases = sqliteTable(
  "concept_aliases",
  {
    brainId: text("brain_id")
      .notNull()
      .references(() => brains.id, { onDelete: "cascade" }),
    alias: text("alias").notNull(),
    concept: text("concept").notNull(),
  },
  (t) => [primaryKey({ columns: [t.brainId, t.alias] })],
);

/** One vector per page and embedding model; a model change re-embeds in the background. */
export const pageVectors = sqliteTable(
  "page_vectors",
  {
    pageId: integer("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    brainId: text("brain_id").notNull(),
    model: text("model").notNull(),
    /** float32 vector written through vector32(json). */
    embedding: blob("embedding").notNull(),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.model] }), index("page_vectors_brain_model").on(t.brainId, t.model)],
);

export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").notNull(),
    /** The source (or other subject) the job works on; one live job per subject and kind. */
    subjectId: text("subject_id").notNull(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>(),
    status: text("status", { enum: ["queued", "running", "done", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    runAfter: integer("run_after").notNull().default(now),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: integer("lease_expires_at"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("jobs_claim").on(t.status, t.runAfter), index("jobs_subject").on(t.subjectId, t.kind)],
);

/** Signed upload URLs are single-use: the token id is recorded once the bytes land. */
export const usedUploadTokens = sqliteTable("used_upload_tokens", {
  tokenId: text("token_id").primaryKey(),
  usedAt: createdAt(),
});

/** Instance-wide values shared by every replica on this database (e.g. the upload-signing secret). */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * Question metering. One row per account, counter and period: `bank` (lifetime, period 0), `quota`
 * (plan period), `daily` (UTC day). Spending is one conditional upsert, so it is exact under concurrency.
 */
export const usageCounters = sqliteTable(
  "usage_counters",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    counter: text("counter", { enum: ["bank", "quota", "daily"] }).notNull(),
    periodStart: integer("period_start").notNull(),
    used: integer("used").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.counter, t.periodStart] })],
);

/** A primary brain blended with advisor brains. */
export const brainSets = sqliteTable(
  "brain_sets",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    primaryBrainId: text("primary_brain_id")
      .notNull()
      .references(() => brains.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("brain_sets_account").on(t.accountId)],
);

export const brainSetAdvisors = sqliteTable(
  "brain_set_advisors",
  {
    setId: text("set_id")
      .notNull()
      .references(() => brainSets.id, { onDelete: "cascade" }),
    brainId: text("brain_id")
      .notNull()
      .references(() => brains.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.brainId] })],
);

/** x402: a public brain whose owner charges per question. A row means paid; deleting it stops charging. */
export const paidBrains = sqliteTable("paid_brains", {
  brainId: text("brain_id")
    .primaryKey()
    .references(() => brains.id, { onDelete: "cascade" }),
  /** Price of one question in atomic units of BRAINBOX_X402_ASSET (USDC: 6 decimals). */
  priceAtomic: integer("price_atomic").notNull(),
  /** Checksummed address receiving the payments. */
  payTo: text("pay_to").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * x402 nonce ledger: one row per EIP-3009 authorization we accepted, inserted (ON CONFLICT DO NOTHING)
 * BEFORE the facilitator verifies it, so one signed header runs at most one job. `reserved` rows whose job
 * never started are deleted; once a job started the row stays: `settled` (tx), `voided` (thin or failed
 * job, settle refused: never runnable again), `unknown` (settle outcome unknown: reconcile on chain),
 * `reconciling` (claimed by one reconciliation: the payer's retry or the background sweep).
 */
export const payments = sqliteTable(
  "payments",
  {
    /** 0x-prefixed lower-case hex of the 32-byte authorization nonce. */
    nonce: text("nonce").primaryKey(),
    payer: text("payer").notNull(),
    payTo: text("pay_to").notNull(),
    resource: text("resource").notNull(),
    /** Decimal string: the signed value, equal to the quote. */
    amountAtomic: text("amount_atomic").notNull(),
    status: text("status", { enum: ["reserved", "settled", "voided", "unknown", "reconciling"] })
      .notNull()
      .default("reserved"),
    txHash: text("tx_hash"),
    reason: text("reason"),
    /** The paid brain asked (HTTP or MCP), or null for an app action. */
    brainId: text("brain_id"),
    /** The app action (`geo/scan`, ...), or null for a brain. */
    action: text("action"),
    /** x402 version the payer spoke (1: X-PAYMENT, 2: PAYMENT-SIGNATURE). */
    x402Version: integer("x402_version").notNull().default(1),
    /** Authorization's validBefore (unix s): past it, an unused authorization can never land. */
    validBefore: integer("valid_before"),
    /** When the result reached the payer; null on a settled row = paid but not delivered yet (reconciled). */
    deliveredAt: integer("delivered_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("payments_payer").on(t.payer),
    index("payments_status").on(t.status),
    index("payments_brain").on(t.brainId, t.createdAt),
    index("payments_action").on(t.action, t.createdAt),
  ],
);

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

/** Admin-page sign-ins (a cookie holding a random secret; only its SHA-256 is stored): the OAuth consent page
 *  reads them so a signed-in owner approves without pasting a key. Never a credential for the API. */
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

export * from "./schema-connectors";
export * from "./schema-teams";
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
export * from "./schema-webhooks";
