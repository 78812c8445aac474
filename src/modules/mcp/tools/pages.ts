// read_page: one wiki page of a brain the caller can read, as markdown (the page cited in answers).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { readableBrain } from "../../brains/service";
import { getPage } from "../../wiki/service";
import { pageUrl } from "../../wiki/urls";
import { guarded, ok } from "../results";
import { brainId, slug } from "../schemas";
import { principalOf, type ToolDeps } from "./deps";

export function registerPageTools(server: McpServer, { ctx, call }: ToolDeps) {
  server.registerTool(
    "read_page",
    {
      title: "Read a wiki page",
      description:
        "Read one wiki page of a brain you can read, by slug (citations and get_context name them). Returns {page:{slug,title,markdown,links,sourceId,updatedAt,url}}; `links` are the slugs it links to with [[slug]].",
      inputSchema: { brainId, slug },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ brainId, slug }) =>
      guarded(ctx.log, "read_page", async () => {
        const brain = await readableBrain(ctx.db, principalOf(call).account.id, brainId);
        const url = (s: string) => pageUrl(ctx, brain.id, s);
        const { html: _html, ...page } = await getPage(ctx.db, brain.id, slug, url);
        return ok({ page: { ...page, url: url(page.slug) } }, `# ${page.title}\n\n${page.markdown.trim()}\n\n(${url(page.slug)})`);
      }),
  );
}
