// The one interface every connector kind implements (website, feed, links, git, folder).
// A kind knows its origin; the runner (../runner.ts) owns the rest: the frontier, resuming, writing
// sources with externalId upserts, counting, pruning. A kind never touches the database.
import type { AllowList, DocumentReader } from "../../../ingest";
import type { Logger } from "../../../lib/log";

/** An item at the origin: a page, an entry, a file. `key` is unique within the connector (a URL, a path). */
export interface ItemRef {
  key: string;
  /** Where the item is fetched from, when it has an address. */
  url?: string;
  /** Links followed from a start item (website). */
  depth?: number;
  /** The version the listing already tells (a Git blob, a feed entry's date): equal to the stored one, no fetch. */
  version?: string;
  /** Anything else the kind wants back in fetch (a feed entry's title). Kept small: stored per item. */
  hint?: Record<string, string | number | boolean>;
}

/** What the connector stored for an item at its last sync. */
export interface KnownItem {
  sourceId: string | null;
  version: string | null;
}

/** The source a kind makes of an item; the runner adds the connector's tag and the externalId. */
export type ItemSource =
  | { type: "text"; title: string; content: string; url?: string }
  | { type: "link"; url: string; title?: string };

export type FetchOutcome =
  /** The origin said nothing changed (304, same hash): nothing is written. */
  | { kind: "unchanged"; version?: string | null; discovered?: ItemRef[] }
  /** New or changed content: upserted as the item's source. */
  | { kind: "content"; source: ItemSource; version: string | null; discovered?: ItemRef[] }
  /** The item's existing source changed at its origin and is processed again as it is (the links kind). */
  | { kind: "reprocess"; version: string | null }
  /** The item is gone at the origin (404, 410): its source is removed unless the connector keeps them. */
  | { kind: "gone" }
  /** Not an item after all (robots.txt says no, not a document): no source, not a failure. */
  | { kind: "skipped"; reason: string; discovered?: ItemRef[] };

/** A GET through the SSRF-safe fetch with the connector's headers, counted in the run's requests. */
export type ConnectorFetch = (
  url: string,
  opts?: { conditional?: { etag?: string; lastModified?: string }; accept?: string; maxBytes?: number },
) => Promise<{ url: string; status: number; contentType: string; body: Uint8Array; etag?: string; lastModified?: string }>;

/** What a kind gets for one run. */
export interface KindRun<C> {
  config: C;
  connectorId: string;
  brainId: string;
  fetch: ConnectorFetch;
  /** Extracts a fetched document off this thread, within the extraction budget. */
  reader: DocumentReader;
  log: Logger;
  signal: AbortSignal;
  /** The brain's link sources (the links kind). */
  linkSources(): Promise<{ id: string; url: string; connectorId: string | null }[]>;
  /** Tells the owner something about the run without failing it (shown with the run's errors). */
  note(message: string): void;
  /** A folder of the data dir that is this connector's own (a Git clone), made on first use. */
  workDir: string;
}

/** What a config is checked against besides itself. */
export interface ConfigEnv {
  /** BRAINBOX_FETCH_ALLOW_HOSTS: a private address outside it is refused when the connector is saved. */
  allowHosts: AllowList;
  /** BRAINBOX_CONNECTOR_GIT_ROOTS / _FOLDER_ROOTS: the server folders a git or folder connector may read. */
  gitRoots: readonly string[];
  folderRoots: readonly string[];
}

export interface ConnectorKind<C = unknown> {
  kind: string;
  /** Top-level config keys that hold secrets: stored encrypted, never returned (only "set"). */
  secretKeys: readonly string[];
  /** Checks a whole config (secrets merged in); throws invalid("config.<field>", ...) naming the field. */
  parseConfig(raw: Record<string, unknown>, env: ConfigEnv): C;
  /** The items a run starts from; called once per run, its answer is stored (a resumed run does not list again). */
  list(run: KindRun<C>): Promise<ItemRef[]>;
  /** Fetches one item; `known` is what the last sync stored of it (null for a new item). */
  fetch(run: KindRun<C>, item: ItemRef, known: KnownItem | null): Promise<FetchOutcome>;
  /** True when items the run did not find are removed from the brain. */
  prunes(config: C): boolean;
  /** True when a run also revisits every item the last runs found (a crawl: an unchanged page tells no links). */
  revisitsKnown(config: C): boolean;
  /** Most items one run handles (listed and discovered). */
  maxItems(config: C): number;
  /** Items fetched at once. */
  concurrency(config: C): number;
  /** Whether this kind's sources are made by the connector (false: the links kind refreshes the brain's own). */
  ownsSources: boolean;
}
