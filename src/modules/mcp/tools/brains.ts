// list_brains (the caller's own and free public brains, as GET /api/brains) and list_paid_brains (the
// bazaar's paid brains, askable through the paid rail).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { listBrains } from "../../brains/service";
import { x402Service } from "../../x402";
import { guarded, ok } from "../results";
import { principalOf, type ToolDeps } from "./deps";

export function registerBrainTools(server: McpServer, { ctx, call }: ToolDeps, opts: { paidOnly?: boolean } = {}) {
  if (!opts.paidOnly)
    server.registerTool(
      "list_brains",
      {
        title: "List brains",
        description:
          "List the brains (knowledge bases) you can ask: your own and those shared with you or your teams and, with scope `accessible` (the default), public free brains of other accounts. Returns {brains:[{id,name,slug,emoji,visibility,sourceCount,owned,role}]}; role is viewer (ask and read), editor (also add_source) or owner. Use an id with ask_brain, get_context, list_sources, read_page or add_source (editor or owner).",
        inputSchema: { scope: z.enum(["accessible", "own"]).default("accessible").describe("own: brains you have a role on; accessible: also public brains of others") },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ({ scope }) =>
        guarded(ctx.log, "list_brains", async () => {
          const all = await listBrains(ctx.db, principalOf(call).account.id, scope);
          const brains = all.map(({ id, name, slug, emoji, visibility, sourceCount, owned, role }) => ({ id, name, slug, emoji, visibility, sourceCount, owned, role }));
          const lines = brains.map((b) => `- ${b.emoji} ${b.name} (id ${b.id}, ${b.visibility}${b.owned ? "" : `, not yours: ${b.role}`}, ${b.sourceCount} sources)`);
          return ok({ brains }, brains.length ? lines.join("\n") : "No brains yet.");
        }),
    );

  server.registerTool(
    "list_paid_brains",
    {
      title: "List paid brains",
      description:
        "List public brains whose owners charge per question (x402, USDC on base), with their price. Returns {brains:[{id,name,slug,emoji,priceAtomic,asset,network,payTo}]}. ask_brain and get_context on them answer with payment terms until the MCP request carries an X-Payment header.",
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(ctx.log, "list_paid_brains", async () => {
        const bazaar = await x402Service(ctx).bazaar();
        const brains = bazaar.items.flatMap((item) => {
          const terms = item.accepts[0];
          if (item.metadata.kind !== "brain" || !item.metadata.brain || !terms) return [];
          return [{ ...item.metadata.brain, priceAtomic: terms.maxAmountRequired, asset: terms.asset, network: terms.network, payTo: terms.payTo }];
        });
        const lines = brains.map((b) => `- ${b.emoji} ${b.name} (id ${b.id}): ${b.priceAtomic} atomic units of ${b.asset} on ${b.network}`);
        return ok({ brains }, brains.length ? lines.join("\n") : "No paid brains are offered here.");
      }),
  );
}
