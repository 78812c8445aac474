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

export * from "./schema-payments";
export * from "./schema-access";
export * from "./schema-connectors";
export * from "./schema-teams";
export * from "./schema-webhooks";
export * from "./schema-conversations";
