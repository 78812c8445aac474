import { t } from "elysia";

/** Longer questions are documents, not questions: 422 (the 1 MiB JSON cap would only say 413 far later). */
export const MAX_QUESTION_CHARS = 4000;

const text = (description: string) => t.String({ minLength: 1, maxLength: MAX_QUESTION_CHARS, pattern: "\\S", description });

// Ids in paths are any string: one that names nothing the caller can reach is a 404 from the service,
// the same answer as a missing brain, whatever its length (no 422 that tells "malformed" from "absent").
export const brainParams = t.Object({ brainId: t.String() });
export const askBody = t.Object({
  question: text("The question, in any language"),
  // Any string: one that names no conversation of the caller's (and of this brain) is a 404, like a brain id.
  conversationId: t.Optional(t.String({ description: "Continue this conversation (the `conversationId` of an earlier answer); omit to start one" })),
});
/** Pages /context returns: best first, at most this many (default CONTEXT_PAGES in service.ts). */
export const MAX_CONTEXT_LIMIT = 50;
export const contextBody = t.Object({
  query: text("What to retrieve pages for"),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: MAX_CONTEXT_LIMIT, description: "How many pages at most, best first (1–50, default 5)" })),
});
