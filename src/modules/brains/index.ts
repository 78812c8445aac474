// Brains over HTTP: the v1 surface (own brains, with emoji, full CRUD) and the unversioned list.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { brainParams, createBrainBody, updateBrainBody } from "./model";
import { createBrain, deleteBrain, getBrainView, listBrains, updateBrain, type BrainView } from "./service";

// `role` (issue 56) is additive: the caller's role on the brain, viewer, editor or owner.
const v1Item = ({ id, name, slug, emoji, visibility, sourceCount, role }: BrainView) => ({ id, name, slug, emoji, visibility, sourceCount, role });
const unversionedItem = ({ id, name, slug, visibility, sourceCount, role }: BrainView) => ({ id, name, slug, visibility, sourceCount, role });

export const brainRoutes = (ctx: AppContext) =>
  new Elysia({ detail: { tags: ["Brains"] } })
    .use(authGuard(ctx, { GET: "brains:read", POST: "brains:write", PATCH: "brains:write" }))
    // The caller's brains: their own and those shared with them or a team of theirs.
    .get("/api/v1/brains", async ({ principal }) => ({
      brains: (await listBrains(ctx.db, principal.account.id, "own")).map(v1Item),
    }))
    // Create a brain; its slug derives from the name, unique per owner.
    .post(
      "/api/v1/brains",
      async ({ principal, body, set }) => {
        set.status = 201;
        return { brain: await createBrain(ctx.db, principal.account.id, body) };
      },
      { body: createBrainBody },
    )
    // One brain with its timestamps and whether the caller owns it.
    .get("/api/v1/brains/:brainId", async ({ principal, params }) => ({
      brain: await getBrainView(ctx.db, principal.account.id, params.brainId),
    }), { params: brainParams })
    // Rename, change emoji or visibility (owner only).
    .patch(
      "/api/v1/brains/:brainId",
      async ({ principal, params, body }) => ({ brain: await updateBrain(ctx.db, principal.account.id, params.brainId, body) }),
      { params: brainParams, body: updateBrainBody },
    )
    // Delete a brain with everything in it (owner only; never with an OAuth access token).
    .delete(
      "/api/v1/brains/:brainId",
      async ({ principal, params, set }) => {
        await deleteBrain(ctx.db, principal.account.id, params.brainId);
        set.status = 204;
      },
      { params: brainParams },
    )
    // Unversioned list: every brain the caller can access (own and public), without emoji.
    .get("/api/brains", async ({ principal }) => ({
      brains: (await listBrains(ctx.db, principal.account.id, "accessible")).map(unversionedItem),
    }));
