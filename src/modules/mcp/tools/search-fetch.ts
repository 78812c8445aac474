// search and fetch: the two tools ChatGPT's data connectors (deep research, company knowledge) call, in
// the shapes OpenAI documents for MCP servers. search(query) → one text item holding JSON
// {results:[{id,title,url}]}; fetch(id) → one text item holding JSON {id,title,text,url,metadata}. They
// search every brain the caller can read at once (own brains first on ties) and read one wiki page; a
// result id is `<brainId>/<slug>`, so fetch needs nothing but the id. Never metered (like get_context).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { notFound } from "../../../lib/errors";
import { answerService } from "../../answer";
import { listBrains, readableBrain } from "../../brains/service";
import { getPage } from "../../wiki/service";
import { pageUrl } from "../../wiki/urls";
import { guarded } from "../results";
import { query } from "../schemas";
import { principalOf, type ToolDeps } from "./deps";

/** Results per search: enough for a research agent to pick from, few enough to fetch them all. */
export const SEARCH_RESULTS = 10;
/** Other accounts' public brains rank a little below the caller's own on ties. */
const OTHERS_WEIGHT = 0.8;

const documentId = z
  .string()
  .min(3)
  .max(400)
  .describe("A result id from search: `<brainId>/<slug>` (the brain and the wiki page)");

/** Exactly one text content item holding the JSON (what ChatGPT parses), the same object as structured content. */
function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

export const resultId = (brainId: string, slug: string) => `${brainId}/${slug}`;

/** `<brainId>/<slug>` → its parts (slugs never contain `/`; brain ids neither). */
export function parseResultId(id: string): { brainId: string; slug: string } | null {
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1 || id.indexOf("/", slash + 1) >= 0) return null;
  return { brainId: id.slice(0, slash), slug: id.slice(slash + 1) };
}

export function registerSearchFetchTools(server: McpServer, { ctx, call }: ToolDeps) {
  server.registerTool(
    "search",
    {
      title: "Search all your brains",
      description:
        'Search the wiki pages of every brain you can read (your own and public ones) for a query. Returns one text item with JSON {"results":[{"id","title","url"}]}, best first; pass an id to fetch for the full page. Never counts against your question quota.',
      inputSchema: { query },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query }) =>
      guarded(ctx.log, "search", async () => {
        const { account } = principalOf(call);
        const readable = await listBrains(ctx.db, account.id, "accessible");
        if (readable.length === 0) return jsonResult({ results: [] });
        const retrieval = await answerService(ctx).retriever.retrieve({
          brains: readable.map((b) => ({ id: b.id, weight: b.owned ? 1 : OTHERS_WEIGHT })),
          query,
          limit: SEARCH_RESULTS,
        });
        const results = retrieval.pages.map((p) => ({ id: resultId(p.brainId, p.slug), title: p.title, url: pageUrl(ctx, p.brainId, p.slug) }));
        return jsonResult({ results });
      }),
  );

  server.registerTool(
    "fetch",
    {
      title: "Fetch a page found by search",
      description:
        'Fetch the full markdown of one wiki page by the id search returned (`<brainId>/<slug>`). Returns one text item with JSON {"id","title","text","url","metadata":{brainId,brainName,slug,sourceId,updatedAt,links}}.',
      inputSchema: { id: documentId },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id }) =>
      guarded(ctx.log, "fetch", async () => {
        const parts = parseResultId(id);
        if (!parts) throw notFound("Page");
        const brain = await readableBrain(ctx.db, principalOf(call).account.id, parts.brainId);
        const url = (slug: string) => pageUrl(ctx, brain.id, slug);
        const page = await getPage(ctx.db, brain.id, parts.slug, url);
        return jsonResult({
          id: resultId(brain.id, page.slug),
          title: page.title,
          text: page.markdown,
          url: url(page.slug),
          metadata: { brainId: brain.id, brainName: brain.name, slug: page.slug, sourceId: page.sourceId, updatedAt: page.updatedAt, links: page.links },
        });
      }),
  );
}
