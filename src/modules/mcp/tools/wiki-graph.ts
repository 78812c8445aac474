// page_links and wiki_graph: a page's outgoing links and backlinks, and the link graph around a page.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { readableBrain } from "../../brains/service";
import { getGraph, MAX_GRAPH_LIMIT } from "../../wiki/graph";
import { getPage } from "../../wiki/service";
import { pageUrl } from "../../wiki/urls";
import { guarded, ok } from "../results";
import { brainId, slug } from "../schemas";
import { principalOf, type ToolDeps } from "./deps";

export function registerWikiGraphTools(server: McpServer, { ctx, call }: ToolDeps) {
  server.registerTool(
    "page_links",
    {
      title: "Links and backlinks of a wiki page",
      description:
        "The wiki pages one page links to and the pages that link to it, in a brain you can read. Returns {slug,title,kind,links:[slug],backlinks:[slug]}; follow them with read_page (concept pages gather what many sources say about one person, place or idea).",
      inputSchema: { brainId, slug },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ brainId, slug }) =>
      guarded(ctx.log, "page_links", async () => {
        const brain = await readableBrain(ctx.db, principalOf(call).account.id, brainId);
        const page = await getPage(ctx.db, brain.id, slug, (s) => pageUrl(ctx, brain.id, s));
        const result = { slug: page.slug, title: page.title, kind: page.kind, links: page.links, backlinks: page.backlinks };
        return ok(result, `${page.title} (${page.kind})\nlinks: ${page.links.join(", ") || "none"}\nbacklinks: ${page.backlinks.join(", ") || "none"}`);
      }),
  );
  server.registerTool(
    "wiki_graph",
    {
      title: "The link graph around a wiki page",
      description:
        "The wiki's link graph around one page (up to `depth` hops, 1–3) or, without `around`, its best-connected pages. Returns {nodes:[{slug,title,kind,degree}], edges:[{from,to}], truncated}.",
      inputSchema: {
        brainId,
        around: slug.optional(),
        depth: z.number().int().min(1).max(3).optional().describe("Hops from `around` (default 1)"),
        limit: z.number().int().min(1).max(MAX_GRAPH_LIMIT).optional().describe("Most nodes returned (default 500)"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ brainId, around, depth, limit }) =>
      guarded(ctx.log, "wiki_graph", async () => {
        const brain = await readableBrain(ctx.db, principalOf(call).account.id, brainId);
        const graph = await getGraph(ctx.db, brain.id, { around, depth, limit });
        return ok(graph, `${graph.nodes.length} pages, ${graph.edges.length} links${graph.truncated ? " (truncated)" : ""}`);
      }),
  );
}
