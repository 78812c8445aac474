// MCP clients for tests: the SDK's own Client over its Streamable HTTP transport, against a real server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export interface McpSession {
  client: Client;
  /** Sets (or clears) the X-Payment header of the following requests. */
  pay(header: string | null): void;
  /** Headers of the last HTTP response (X-PAYMENT-RESPONSE). */
  lastHeaders(): Headers | null;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { structuredContent?: any }>;
  close(): Promise<void>;
}

/** Connects with `Authorization: Bearer <bearer>` (an API key or an access token), or none. */
export async function connectMcp(baseUrl: string, bearer: string | null, path = "/mcp"): Promise<McpSession> {
  let payment: string | null = null;
  let last: Headers | null = null;
  const transport = new StreamableHTTPClientTransport(new URL(baseUrl + path), {
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      if (bearer) headers.set("authorization", `Bearer ${bearer}`);
      if (payment) headers.set("x-payment", payment);
      const response = await fetch(url, { ...init, headers });
      last = response.headers;
      return response;
    },
  });
  const client = new Client({ name: "brainbox-tests", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    pay: (header) => void (payment = header),
    lastHeaders: () => last,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: any },
    close: () => client.close(),
  };
}

export const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

/** A raw JSON-RPC POST to /mcp (for what the SDK client would never send). */
export function rawMcp(baseUrl: string, body: string, headers: Record<string, string> = {}, path = "/mcp"): Promise<Response> {
  return fetch(baseUrl + path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", ...headers },
    body,
  });
}
