// The links kind: a brain setting that re-reads every link source of the brain on a schedule with a
// conditional GET; a link whose page changed is processed again (its owner-edited pages only learn
// sourceChanged), an unchanged one costs one request and writes nothing.
import { isIngestError } from "../../../../ingest";
import { sha256Hex } from "../../../../lib/secrets";
import type { ConnectorKind } from "../types";
import { onlyKnownKeys, optionalBool } from "../config-fields";

export interface LinksConfig {
  /** Also the links other connectors made (a feed's articles); default: only links added by hand. */
  includeConnectorSources: boolean;
}

interface Version {
  etag?: string;
  lastModified?: string;
  hash?: string;
}

export const linksKind: ConnectorKind<LinksConfig> = {
  kind: "links",
  secretKeys: [],
  // The sources are the brain's own: this kind never adds or removes one.
  ownsSources: false,
  parseConfig(raw) {
    onlyKnownKeys(raw, ["includeConnectorSources"]);
    return { includeConnectorSources: optionalBool(raw, "includeConnectorSources", false) };
  },
  async list(run) {
    const links = await run.linkSources();
    return links
      .filter((l) => run.config.includeConnectorSources || l.connectorId === null)
      .map((l) => ({ key: l.id, url: l.url, hint: { sourceId: l.id } }));
  },
  async fetch(run, item, known) {
    const old: Version | null = known?.version ? (JSON.parse(known.version) as Version) : null;
    let res;
    try {
      res = await run.fetch(item.url!, old ? { conditional: { etag: old.etag, lastModified: old.lastModified } } : {});
    } catch (e) {
      // A link that answers 404 stays in the brain as it was: the owner added it and decides.
      if (isIngestError(e) && e.code === "http_status") throw new Error(`${item.url} answered HTTP ${e.details.status}; the source was kept as it was`);
      throw e;
    }
    if (res.status === 304 && old) return { kind: "unchanged" };
    const version: Version = { etag: res.etag, lastModified: res.lastModified, hash: sha256Hex(Buffer.from(res.body).toString("latin1")) };
    // The first look at a link records what it is now: it was read when it was added.
    if (!old || old.hash === version.hash) return { kind: "unchanged", version: JSON.stringify(version) };
    return { kind: "reprocess", version: JSON.stringify(version) };
  },
  prunes: () => false,
  revisitsKnown: () => false,
  maxItems: () => 100_000,
  concurrency: () => 4,
};
