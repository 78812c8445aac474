// Brain sets over HTTP: CRUD here; the set ask lives with the answer routes (it shares their service).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { createSetBody, setParams, updateSetBody } from "./model";
import { createBrainSet, deleteBrainSet, getBrainSet, listBrainSets, updateBrainSet } from "./service";

export const brainSetRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: "/api/v1/brain-sets", detail: { tags: ["Brain sets"] } })
    .use(authGuard(ctx, { GET: "brains:read", POST: "brains:write", PATCH: "brains:write", DELETE: "brains:write" }))
    // The caller's brain sets.
    .get("", async ({ principal }) => ({ brainSets: await listBrainSets(ctx.db, principal.account.id) }))
    // Create a set: a primary brain and 1 to 4 advisors the caller can read.
    .post(
      "",
      async ({ principal, body, set }) => {
        set.status = 201;
        return { brainSet: await createBrainSet(ctx.db, principal.account.id, body) };
      },
      { body: createSetBody },
    )
    // One set.
    .get("/:setId", async ({ principal, params }) => ({ brainSet: await getBrainSet(ctx.db, principal.account.id, params.setId) }), {
      params: setParams,
    })
    // Rename or change members.
    .patch(
      "/:setId",
      async ({ principal, params, body }) => ({ brainSet: await updateBrainSet(ctx.db, principal.account.id, params.setId, body) }),
      { params: setParams, body: updateSetBody },
    )
    // Delete a set (its brains stay).
    .delete(
      "/:setId",
      async ({ principal, params, set }) => {
        await deleteBrainSet(ctx.db, principal.account.id, params.setId);
        set.status = 204;
      },
      { params: setParams },
    );
