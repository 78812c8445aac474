// Request shapes of the connector routes. Fields are checked by the service (each error names its field,
// `config.<field>` inside a config), so the schemas here only describe them.
import { t } from "elysia";

export const brainParams = t.Object({ brainId: t.String() });
export const connectorParams = t.Object({ brainId: t.String(), connectorId: t.String() });

export const connectorBody = t.Object(
  {
    kind: t.Optional(t.Unknown({ description: "website, feed, links, git or folder" })),
    name: t.Optional(t.Unknown({ description: "What the owner calls it" })),
    config: t.Optional(t.Unknown({ description: "The kind's settings (docs/connectors.md); secrets are write-only" })),
    schedule: t.Optional(t.Unknown({ description: '"manual", an interval ("every 6h", "PT6H", seconds) or a cron expression' })),
    paused: t.Optional(t.Unknown({ description: "A paused connector is not run by its schedule" })),
  },
  { additionalProperties: true },
);

export const deleteQuery = t.Object({ removeSources: t.Optional(t.String({ description: "true: the connector's sources go with it" })) });
export const deleteBody = t.Optional(t.Object({ removeSources: t.Optional(t.Boolean()) }, { additionalProperties: true }));
export const runsQuery = t.Object({ limit: t.Optional(t.String()) });
