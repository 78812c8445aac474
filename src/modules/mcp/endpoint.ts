// One MCP HTTP request, end to end: method, authentication (account mode), a fresh stateless server and
// transport (JSON responses, so headers set by tools, such as X-PAYMENT-RESPONSE, reach the reply).
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { AppContext } from "../../context";
import { errorBody } from "../../http/errors";
import { AppError } from "../../lib/errors";
import { authenticate, type Principal } from "../auth/keys";
import { bearerChallenge } from "../oauth/metadata";
import type { CallContext, McpMode } from "./call-context";
import { buildMcpServer } from "./mcp-server";

/** Stateless: no session, so no standalone SSE stream (GET) and nothing to end (DELETE). */
function methodNotAllowed(): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages" }, id: null },
    { status: 405, headers: { allow: "POST" } },
  );
}

/** 401 that tells an MCP client where to start OAuth (RFC 9728 resource metadata). */
function unauthorized(ctx: AppContext, message: string, presented: boolean): Response {
  const challenge = bearerChallenge(ctx.publicUrl(), "/mcp", presented ? message : undefined);
  return Response.json(errorBody("unauthorized", message), { status: 401, headers: { "www-authenticate": challenge } });
}

export async function handleMcpRequest(ctx: AppContext, request: Request, mode: McpMode, endpointUrl: string): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed();
  let principal: Principal | null = null;
  if (mode === "account") {
    const authorization = request.headers.get("authorization") ?? undefined;
    try {
      principal = await authenticate(ctx.db, authorization, { accessToken: ctx.accessTokens, log: ctx.log });
    } catch (error) {
      if (error instanceof AppError && error.code === "unauthorized") return unauthorized(ctx, error.message, authorization !== undefined);
      throw error;
    }
  }
  const call: CallContext = { mode, principal, paymentHeader: request.headers.get("x-payment"), paymentSignature: request.headers.get("payment-signature"), endpointUrl, responseHeaders: {} };
  const server = buildMcpServer(ctx, call);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: ctx.config.maxBodyBytes,
  });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (Object.keys(call.responseHeaders).length === 0) return response;
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(call.responseHeaders)) headers.set(name, value);
    return new Response(response.body, { status: response.status, headers });
  } finally {
    // JSON mode: the reply is complete once handleRequest resolves, so the pair can go now.
    await server.close();
  }
}
