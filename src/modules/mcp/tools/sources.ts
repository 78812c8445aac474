// add_source and list_sources: the sources service, with the v1 body rules (fromV1: field-named errors,
// link URLs checked against the fetch policy) and the same brain rules (add: owner only).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { editableBrain, readableBrain } from "../../brains/service";
import { fromV1 } from "../../sources/normalize";
import { addSource, listSources, sourceView } from "../../sources/service";
import { v1Source } from "../presenters";
import { guarded, ok } from "../results";
import { brainId, sourceInput } from "../schemas";
import { principalOf, type ToolDeps } from "./deps";

export function registerSourceTools(server: McpServer, { ctx, call }: ToolDeps) {
  const deps = { db: ctx.db, maxAttempts: ctx.config.jobMaxAttempts, wake: () => ctx.jobs.wake() };

  server.registerTool(
    "add_source",
    {
      title: "Add a source to a brain",
      description:
        "Add a text passage, a link or a note to one of your brains. It is processed in the background into wiki pages (status pending → ready, see list_sources). Returns {source:{id,type,title,status,externalId}, created}; with an externalId already used in the brain, the existing source is returned with created: false (updated if its content changed).",
      inputSchema: sourceInput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (input) =>
      guarded(ctx.log, "add_source", async () => {
        await editableBrain(ctx.db, principalOf(call).account.id, input.brainId);
        const { kind, title, content, url, sourceUrl, externalId } = input;
        const body =
          kind === "link" ? { kind: "link", url: url ?? "", title, externalId } : kind === "note" ? { mode: "note", title, content, externalId } : { title, content, sourceUrl, externalId };
        const { source, created } = await addSource(deps, input.brainId, fromV1(body, ctx.config.fetchAllowHosts));
        const view = v1Source(source);
        return ok({ source: view, created }, `${created ? "Added" : "Already there:"} ${view.type} source "${view.title}" (id ${view.id}, status ${view.status}).`);
      }),
  );

  server.registerTool(
    "list_sources",
    {
      title: "List a brain's sources",
      description:
        "List every source of a brain you can read, with its processing status (pending, processing, ready, failed with an error) and page count. Returns {sources:[{id,type,title,status,externalId,url,filename,contentType,size,pageCount,error,connectorId,createdAt,updatedAt}]} (connectorId: the connector that keeps it in sync, or null).",
      inputSchema: { brainId },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ brainId }) =>
      guarded(ctx.log, "list_sources", async () => {
        await readableBrain(ctx.db, principalOf(call).account.id, brainId);
        const sources = (await listSources(ctx.db, brainId)).map(sourceView);
        const lines = sources.map((s) => `- [${s.status}] ${s.title} (${s.type}, id ${s.id}, ${s.pageCount} pages)${s.error ? `: ${s.error}` : ""}`);
        return ok({ sources }, sources.length ? lines.join("\n") : "This brain has no sources yet.");
      }),
  );
}
