// The MCP tools follow the HTTP rule for ids: one that names nothing the caller can reach is not_found
// with the body of a missing brain, whatever its length or characters (no "too long" validation error).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connectMcp, type McpSession } from "../mcp/support";
import { NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";

let s: TestServer;
let mcp: McpSession;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
  brainId = await newBrain(s, "Mcp ids");
  mcp = await connectMcp(s.url, s.key);
});
afterAll(async () => {
  await mcp.close();
  await s.close();
});

test("brain ids of any length or characters: not_found, like a missing brain", async () => {
  for (const id of ["brn_0000000000000000", "a".repeat(150), "ü é/..", "x".repeat(5000)]) {
    for (const [tool, args] of [
      ["ask_brain", { brainId: id, question: "What?" }],
      ["list_sources", { brainId: id }],
      ["get_context", { brainId: id, query: "what" }],
      ["add_source", { brainId: id, kind: "note", title: "T", content: "C" }],
    ] as const) {
      const result = await mcp.call(tool, args);
      expect({ tool, id: id.slice(0, 20), isError: result.isError, error: result.structuredContent?.error }).toEqual({
        tool,
        id: id.slice(0, 20),
        isError: true,
        error: { code: "not_found", message: "Brain not found" },
      });
    }
  }
});

test("a page slug or brain set id of any length: not_found", async () => {
  const page = await mcp.call("read_page", { brainId, slug: "s".repeat(500) });
  expect(page.structuredContent?.error?.code).toBe("not_found");
  const set = await mcp.call("ask_brain_set", { setId: "set_".padEnd(300, "x"), question: "What?" });
  expect(set.structuredContent?.error?.code).toBe("not_found");
});
