// One McpServer per HTTP request (stateless: any replica answers any request), with the tools of the
// endpoint's mode: every tool on /mcp (account), only the paid-brain tools on the keyless /mcp/x402.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AppContext } from "../../context";
import { allows, type Scope } from "../auth/scopes";
import type { CallContext } from "./call-context";
import { registerAnswerTools } from "./tools/answers";
import { registerBrainSetTools } from "./tools/brain-sets";
import { registerBrainTools } from "./tools/brains";
import { registerConnectorTools } from "./tools/connectors";
import { registerPageTools } from "./tools/pages";
import { registerSearchFetchTools } from "./tools/search-fetch";
import { registerSourceTools } from "./tools/sources";
import { registerWikiGraphTools } from "./tools/wiki-graph";

const INSTRUCTIONS = {
  account:
    "Brainbox answers questions from knowledge bases called brains, citing their wiki pages. Start with list_brains; ask_brain answers (one question of your plan), get_context returns the matching pages for you to reason over, add_source feeds a brain.",
  "paid-only":
    "Keyless paid access to Brainbox brains (x402, USDC on base): list_paid_brains, then ask_brain or get_context. Without an X-Payment header they return the payment terms; pay, then call again with X-Payment.",
} as const;

/** The scope each account-mode tool needs from an OAuth access token; a tool not listed is owner-only. */
export const TOOL_SCOPES: Record<string, Scope> = {
  list_brains: "brains:read",
  list_paid_brains: "brains:read",
  list_sources: "brains:read",
  list_connectors: "brains:read",
  read_page: "brains:read",
  search: "brains:read",
  fetch: "brains:read",
  page_links: "brains:read",
  wiki_graph: "brains:read",
  ask_brain: "ask",
  get_context: "ask",
  ask_brain_set: "ask",
  add_source: "sources:write",
};

/** A token sees (and can call) only the tools its scopes allow: the others are never registered. */
function onlyToolsInScope(server: McpServer, scopes: ReadonlySet<string> | undefined): void {
  if (!scopes) return;
  const register = server.registerTool.bind(server);
  server.registerTool = ((name: string, ...rest: unknown[]) => {
    const tool = (register as (...args: unknown[]) => ReturnType<McpServer["registerTool"]>)(name, ...rest);
    if (!allows(scopes, TOOL_SCOPES[name] ?? "owner")) tool.remove();
    return tool;
  }) as McpServer["registerTool"];
}

export function buildMcpServer(ctx: AppContext, call: CallContext): McpServer {
  const server = new McpServer({ name: "brainbox", version: ctx.version }, { instructions: INSTRUCTIONS[call.mode] });
  const deps = { ctx, call };
  if (call.mode === "account") {
    onlyToolsInScope(server, call.principal?.scopes);
    registerBrainTools(server, deps);
    registerAnswerTools(server, deps);
    registerBrainSetTools(server, deps);
    registerSourceTools(server, deps);
    registerConnectorTools(server, deps);
    registerPageTools(server, deps);
    registerSearchFetchTools(server, deps);
    registerWikiGraphTools(server, deps);
  } else {
    registerBrainTools(server, deps, { paidOnly: true });
    registerAnswerTools(server, deps);
  }
  return server;
}
