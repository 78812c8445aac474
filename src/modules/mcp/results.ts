// Tool results: structured content (the same fields as the HTTP API) plus readable text. Failures are
// tool results with isError (the model reads them and can correct itself), never protocol errors.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { errorBody } from "../../http/errors";
import { isStorageFull } from "../../lib/db-errors";
import { AppError, STORAGE_FULL_MESSAGE } from "../../lib/errors";
import type { Logger } from "../../lib/log";

export function ok(structured: object, text: string): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: { ...structured } };
}

/** `{error:{code, message, field?}}` (and `quota` beside it), as the HTTP API's error bodies. */
export function failure(code: string, message: string, details: Record<string, unknown> = {}): CallToolResult {
  const structured = errorBody(code, message, details) as Record<string, unknown>;
  const field = typeof details.field === "string" ? ` (field: ${details.field})` : "";
  return { content: [{ type: "text", text: `${code}: ${message}${field}` }], structuredContent: structured, isError: true };
}

/** Runs a tool: domain errors (404, 422, 402 bank, 429 quota...) become tool errors; anything else is logged. */
export async function guarded(log: Logger, tool: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) return failure(error.code, error.message, error.details);
    if (isStorageFull(error)) {
      log.warn("mcp tool refused: storage full", { tool, error: String((error as Error)?.message ?? error) });
      return failure("storage_full", STORAGE_FULL_MESSAGE);
    }
    log.error("mcp tool failed", { tool, error: String((error as Error)?.stack ?? error) });
    return failure("internal", "Internal error while running the tool");
  }
}
