// Reading connectors back: the row, and its whole config (public part and opened secrets) for a run.
import { eq } from "drizzle-orm";
import type { RootDb as Db } from "../../db/client";
import { connectors, type Connector } from "../../db/schema";
import { openSecrets } from "./secrets";

export async function loadConnector(db: Db, id: string): Promise<Connector | undefined> {
  return db.query.connectors.findFirst({ where: eq(connectors.id, id) });
}

/** The config with its secrets: only a run (and a patch merging new values) ever sees them. */
export async function fullConfig(db: Db, c: Connector): Promise<Record<string, unknown>> {
  return { ...(JSON.parse(c.config) as Record<string, unknown>), ...(await openSecrets(db, c.secrets)) };
}
