// Wire shapes of the conversation routes.
import { t } from "elysia";
import { MAX_CONVERSATION_LIMIT } from "./service";

// Any id: one that is not the caller's is the same 404 as a missing one.
export const conversationParams = t.Object({ conversationId: t.String() });
export const listQuery = t.Object({
  // Checked by listConversations (lib/whole-number.ts).
  limit: t.Optional(t.String({ maxLength: 12, description: `Conversations per page (default 20, at most ${MAX_CONVERSATION_LIMIT})` })),
  cursor: t.Optional(t.String({ maxLength: 200, description: "nextCursor of the previous page" })),
});
