// Connectors (migration 0027): a brain kept in sync with where a team's knowledge lives.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";

/** One connector of a brain: its kind, settings (secrets apart, encrypted) and schedule. */
export const connectors = sqliteTable(
  "connectors",
  {
    id: text("id").primaryKey(),
    brainId: text("brain_id").notNull(),
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    /** The kind's settings without its secrets (JSON). */
    config: text("config").notNull().default("{}"),
    /** The secret settings, AES-GCM encrypted with a key derived from the instance secret (modules/connectors/secrets.ts). */
    secrets: text("secrets"),
    schedule: text("schedule").notNull().default("manual"),
    paused: integer("paused", { mode: "boolean" }).notNull().default(false),
    /** When the scheduler starts the next run; null for a manual or paused connector. */
    nextRunAt: integer("next_run_at"),
    /** Set while a delete removes its sources: a run still going writes nothing more. */
    deleting: integer("deleting", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("connectors_brain").on(t.brainId)],
);

/** One sync of a connector: its status, phase and counts. */
export const connectorRuns = sqliteTable(
  "connector_runs",
  {
    id: text("id").primaryKey(),
    connectorId: text("connector_id").notNull(),
    trigger: text("trigger", { enum: ["manual", "schedule"] }).notNull(),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed", "cancelled"] }).notNull().default("queued"),
    /** list → fetch → prune → done; a resumed run continues in its phase. */
    phase: text("phase", { enum: ["list", "fetch", "prune", "done"] }).notNull().default("list"),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
    added: integer("added").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    unchanged: integer("unchanged").notNull().default(0),
    removed: integer("removed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    requests: integer("requests").notNull().default(0),
    /** The first errors, in plain words (JSON array). */
    errors: text("errors").notNull().default("[]"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("connector_runs_one_active").on(t.connectorId).where(sql`status IN ('queued', 'running')`),
    index("connector_runs_connector").on(t.connectorId, t.createdAt),
  ],
);

/** What a connector knows of each item at its origin: its source, its version, and which run has seen it. */
export const connectorItems = sqliteTable(
  "connector_items",
  {
    connectorId: text("connector_id").notNull(),
    itemKey: text("item_key").notNull(),
    /** The kind's reference to the item (JSON: url, depth, ...). */
    ref: text("ref").notNull().default("{}"),
    sourceId: text("source_id"),
    /** The item's version at its last fetch (ETag, Last-Modified, a hash: the kind's own string). */
    version: text("version"),
    /** The run whose frontier holds the item, the run that processed it, the last run that found it present. */
    queuedRun: text("queued_run"),
    doneRun: text("done_run"),
    seenRun: text("seen_run"),
  },
  (t) => [primaryKey({ columns: [t.connectorId, t.itemKey] }), index("connector_items_frontier").on(t.connectorId, t.queuedRun, t.doneRun)],
);

export type Connector = typeof connectors.$inferSelect;
export type ConnectorRun = typeof connectorRuns.$inferSelect;
