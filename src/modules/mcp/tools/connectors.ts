// list_connectors (read-only): a brain's connectors and how their last run went, as GET .../connectors.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { readableBrain } from "../../brains/service";
import { connectorView, listConnectors } from "../../connectors/service";
import { guarded, ok } from "../results";
import { brainId } from "../schemas";
import { principalOf, type ToolDeps } from "./deps";

export function registerConnectorTools(server: McpServer, { ctx, call }: ToolDeps) {
  server.registerTool(
    "list_connectors",
    {
      title: "List a brain's connectors",
      description:
        "List the connectors that keep a brain in sync (a website, a feed, the brain's own links), with their schedule and last run: status, counts added/updated/unchanged/removed/failed and the first errors. Read-only; secrets are never shown. Returns {connectors:[{id,kind,name,schedule,paused,nextRunAt,lastRun}]}.",
      inputSchema: { brainId },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ brainId }) =>
      guarded(ctx.log, "list_connectors", async () => {
        await readableBrain(ctx.db, principalOf(call).account.id, brainId);
        const views = await Promise.all((await listConnectors(ctx.db, brainId)).map((c) => connectorView(ctx.db, c)));
        const connectors = views.map(({ id, kind, name, schedule, paused, nextRunAt, lastRun }) => ({ id, kind, name, schedule, paused, nextRunAt, lastRun }));
        const lines = connectors.map((c) => {
          const r = c.lastRun;
          const last = r
            ? `last run ${r.status}${r.finishedAt ? ` at ${r.finishedAt}` : ""}: ${r.counts.added} added, ${r.counts.updated} updated, ${r.counts.unchanged} unchanged, ${r.counts.removed} removed, ${r.counts.failed} failed${r.errors.length ? ` (first error: ${r.errors[0]})` : ""}`
            : "never run";
          return `- ${c.name} (${c.kind}, id ${c.id}, ${c.paused ? "paused" : c.schedule}): ${last}`;
        });
        return ok({ connectors }, connectors.length ? lines.join("\n") : "This brain has no connectors.");
      }),
  );
}
