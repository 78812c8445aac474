// One McpServer per HTTP request (stateless: any replica answers any request), with the tools of the
// endpoint's mode: every tool on /mcp (account), only the paid-brain tools on the keyless /mcp/x402.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AppContext } from "../../context";
import type { CallContext } from "./call-context";
import { registerAnswerTools } from "./tools/answers";
import { registerBrainSetTools } from "./tools/brain-sets";
import { registerBrainTools } from "./tools/brains";
import { registerPageTools } from "./tools/pages";
import { registerSourceTools } from "./tools/sources";
import { registerWikiGraphTools } from "./tools/wiki-graph";

const INSTRUCTIONS = {
  account:
    "Brainbox answers questions from knowledge bases called brains, citing their wiki pages. Start with list_brains; ask_brain answers (one question of your plan), get_context returns the matching pages for you to reason over, add_source feeds a brain.",
  "paid-only":
    "Keyless paid access to Brainbox brains (x402, USDC on base): list_paid_brains, then ask_brain or get_context. Without an X-Payment header they return the payment terms; pay, then call again with X-Payment.",
} as const;

export function buildMcpServer(ctx: AppContext, call: CallContext): McpServer {
  const server = new McpServer({ name: "brainbox", version: ctx.version }, { instructions: INSTRUCTIONS[call.mode] });
  const deps = { ctx, call };
  if (call.mode === "account") {
    registerBrainTools(server, deps);
    registerAnswerTools(server, deps);
    registerBrainSetTools(server, deps);
    registerSourceTools(server, deps);
    registerPageTools(server, deps);
    registerWikiGraphTools(server, deps);
  } else {
    registerBrainTools(server, deps, { paidOnly: true });
    registerAnswerTools(server, deps);
  }
  return server;
}
