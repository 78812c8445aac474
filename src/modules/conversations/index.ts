// Conversations over HTTP (v1): the caller's list, newest first with a cursor; one with its turns; deleting
// one. Asking in a conversation is the ask routes' `conversationId` (answer/index.ts, brain-sets/ask.ts, the
// MCP ask tools). A conversation is its starter's alone: anyone else gets 404, as for a missing one.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { readableBrain } from "../brains/service";
import { pageUrl } from "../wiki/urls";
import { conversationParams, listQuery } from "./model";
import { conversationWithTurns, deleteConversation, listConversations, ownConversation } from "./service";

export const conversationRoutes = (ctx: AppContext) =>
  new Elysia({ detail: { tags: ["Conversations"] } })
    .use(authGuard(ctx, "ask"))
    .get("/api/v1/conversations", ({ principal, query }) => listConversations(ctx.db, principal.account.id, query), {
      query: listQuery,
      detail: {
        summary: "The caller's conversations",
        description: "`{conversations:[{id,title,brainId,setId,turns,createdAt,updatedAt}], nextCursor}`, the last continued first; `title` is the first question.",
      },
    })
    .get(
      "/api/v1/conversations/:conversationId",
      async ({ principal, params }) => {
        const row = await ownConversation(ctx.db, principal.account.id, params.conversationId);
        // Answers quote the brain's pages: someone who can no longer read the brain no longer reads them here.
        await readableBrain(ctx.db, principal.account.id, row.brainId);
        return conversationWithTurns(ctx.db, row, (brainId, slug) => pageUrl(ctx, brainId, slug));
      },
      {
        params: conversationParams,
        detail: {
          summary: "A conversation with its turns",
          description: "`{conversation, turns:[{askId,question,standaloneQuestion,answerMd,citations:[{brain,slug,ref,title,url}],thin,createdAt}]}`, oldest turn first.",
        },
      },
    )
    .delete(
      "/api/v1/conversations/:conversationId",
      async ({ principal, params }) => {
        await deleteConversation(ctx.db, principal.account.id, params.conversationId);
        return { deleted: true };
      },
      { params: conversationParams, detail: { summary: "Delete a conversation", description: "Its turns go with it; the asks stay in the ask history." } },
    );
