// Input schemas of the tools (zod: what the SDK's McpServer takes; it publishes them as JSON Schema and
// validates every call). Limits match the HTTP API's.
import { z } from "zod";
import { MAX_CONTEXT_LIMIT, MAX_QUESTION_CHARS } from "../answer/model";

// Ids have no length cap: one that names nothing is not_found, like a missing brain (no "too long" leak).
export const brainId = z.string().min(1).describe("The brain's id, e.g. brn_… (from list_brains)");
export const question = z.string().min(1).max(MAX_QUESTION_CHARS, `must be at most ${MAX_QUESTION_CHARS} characters`).regex(/\S/, "must not be blank").describe("The question, in any language");
export const query = z.string().min(1).max(MAX_QUESTION_CHARS, `must be at most ${MAX_QUESTION_CHARS} characters`).regex(/\S/, "must not be blank").describe("What to retrieve wiki pages for");
export const contextLimit = z.number().int().min(1).max(MAX_CONTEXT_LIMIT).optional().describe("How many pages at most, best first (1–50, default 5)");
export const setId = z.string().min(1).describe("The brain set's id, e.g. set_… (GET /api/v1/brain-sets lists them)");
export const conversationId = z
  .string()
  .min(1)
  .optional()
  .describe("Continue this conversation: the conversationId of an earlier answer (a follow-up is rewritten from its last turns before searching); omit to start one");
export const slug = z.string().min(1).describe("The page's slug, as cited in answers or listed by get_context");

export const sourceInput = {
  brainId,
  kind: z
    .enum(["text", "link", "note"])
    .describe("text: a passage, synthesized into wiki pages; link: a URL fetched and synthesized; note: markdown stored verbatim as one page"),
  title: z.string().max(500).optional().describe("Required for text and note; optional for link"),
  content: z.string().optional().describe("text and note: the body (markdown)"),
  url: z.string().max(2048).optional().describe("link: the http(s) URL to fetch"),
  sourceUrl: z.string().max(2048).optional().describe("text: where the passage comes from (shown as its origin)"),
  externalId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Your own key for this source: adding the same externalId again returns the existing source (created: false) instead of a duplicate"),
};
