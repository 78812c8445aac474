// The MCP endpoints (Streamable HTTP, stateless): /mcp in account mode (Authorization: Bearer with an API
// key or an OAuth access token; a 401 points MCP clients at OAuth discovery) and /mcp/x402, keyless, where
// payment is the credential and only paid brains can be asked.
//
// They answer from onRequest, before Elysia parses the body: the app's JSON parser would answer malformed
// JSON with the REST error shape, where an MCP client expects the SDK's JSON-RPC parse error (-32700).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { errorBody } from "../../http/errors";
import type { McpMode } from "./call-context";
import { handleMcpRequest } from "./endpoint";
import { pathOf } from "../../lib/url-path";

export const MCP_PATH = "/mcp";
export const MCP_PAID_PATH = "/mcp/x402";

function modeOf(url: string): McpMode | null {
  const path = pathOf(url);
  if (path === MCP_PATH || path === `${MCP_PATH}/`) return "account";
  if (path === MCP_PAID_PATH || path === `${MCP_PAID_PATH}/`) return "paid-only";
  return null;
}

export const mcpRoutes = (ctx: AppContext) =>
  new Elysia({ name: "mcp" })
    // POST /mcp and /mcp/x402: JSON-RPC over Streamable HTTP (JSON responses); GET and DELETE → 405.
    .onRequest(async ({ request }) => {
      const mode = modeOf(request.url);
      if (!mode) return;
      try {
        return await handleMcpRequest(ctx, request, mode, ctx.publicUrl() + (mode === "account" ? MCP_PATH : MCP_PAID_PATH));
      } catch (error) {
        ctx.log.error("mcp request failed", { error: String((error as Error)?.stack ?? error) });
        return Response.json(errorBody("internal", "Internal server error"), { status: 500 });
      }
    });
