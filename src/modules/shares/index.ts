// Shares over HTTP (v1): list, put and delete the shares of a brain or a brain set, and "shared with me".
// Changing shares is owner-only on the brain and, for OAuth tokens, owner-only too (no scope grants it).
import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { listBrainSets } from "../brain-sets/service";
import type { BrainRole } from "../brains/access";
import { listBrains } from "../brains/service";
import { listShares, putShare, removeShare, sharedWithMeIds, type Grantee, type Resource } from "./service";

const role = t.Union([t.Literal("viewer"), t.Literal("editor"), t.Literal("owner")]);
const putBody = t.Object({ role });

// One pair of routes per kind of grantee (`accounts/{accountId}`, `teams/{teamId}`): every path segment is
// an id, so an id that names nothing is 404 like any other (never a 422 on a path's shape).
const GRANTEES = [
  { segment: "accounts", param: "accountId", kind: "account" },
  { segment: "teams", param: "teamId", kind: "team" },
] as const;

const routesFor = (ctx: AppContext, base: string, kind: Resource["kind"], idParam: "brainId" | "setId") => {
  const resourceParams = t.Object({ [idParam]: t.String() });
  const resource = (p: Record<string, string>): Resource => ({ kind, id: p[idParam]! });
  let app = new Elysia({ detail: { tags: ["Shares"] } })
    .use(authGuard(ctx, { GET: "brains:read" }))
    // Who has which role (owners only).
    .get(
      `${base}/:${idParam}/shares`,
      async ({ principal, params }) => ({ shares: await listShares(ctx.db, principal.account.id, resource(params as Record<string, string>)) }),
      { params: resourceParams },
    );
  for (const g of GRANTEES) {
    const path = `${base}/:${idParam}/shares/${g.segment}/:${g.param}`;
    const params = t.Object({ [idParam]: t.String(), [g.param]: t.String() });
    const grantee = (p: Record<string, string>): Grantee => ({ kind: g.kind, id: p[g.param]! });
    app = app
      // Share with a person or a whole team at a role, or change their role (owners only).
      .put(
        path,
        async ({ principal, params: p, body }) => {
          const q = p as Record<string, string>;
          return { share: await putShare(ctx.db, principal.account, resource(q), grantee(q), (body as { role: BrainRole }).role, ctx.log) };
        },
        { params, body: putBody },
      )
      // Stop sharing (owners), or leave (anyone, their own share); the last owner is 409.
      .delete(
        path,
        async ({ principal, params: p, set }) => {
          const q = p as Record<string, string>;
          await removeShare(ctx.db, principal.account, resource(q), grantee(q), ctx.log);
          set.status = 204;
        },
        { params },
      ) as unknown as typeof app;
  }
  return app;
};

export const shareRoutes = (ctx: AppContext) =>
  new Elysia()
    .use(routesFor(ctx, "/api/v1/brains", "brain", "brainId"))
    .use(routesFor(ctx, "/api/v1/brain-sets", "brain_set", "setId"))
    .use(
      new Elysia({ detail: { tags: ["Shares"] } })
        .use(authGuard(ctx, { GET: "brains:read" }))
        // Brains and brain sets others shared with the caller or a team of theirs, with the caller's role.
        .get("/api/v1/shared-with-me", async ({ principal }) => {
          const ids = await sharedWithMeIds(ctx.db, principal.account.id);
          const brains = (await listBrains(ctx.db, principal.account.id, "own")).filter((b) => ids.brains.has(b.id));
          const sets = (await listBrainSets(ctx.db, principal.account.id)).filter((s) => ids.brainSets.has(s.id));
          return {
            brains: brains.map(({ id, name, slug, emoji, visibility, sourceCount, role }) => ({ id, name, slug, emoji, visibility, sourceCount, role })),
            brainSets: sets,
          };
        }),
    );
