// Shares over HTTP (v1): list, put and delete the shares of a brain or a brain set, and "shared with me".
// Changing shares is owner-only on the brain and, for OAuth tokens, owner-only too (no scope grants it).
import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { listBrainSets } from "../brain-sets/service";
import { listBrains } from "../brains/service";
import { listShares, putShare, removeShare, sharedWithMeIds, type Grantee, type Resource } from "./service";

const role = t.Union([t.Literal("viewer"), t.Literal("editor"), t.Literal("owner")]);
const granteeKind = t.Union([t.Literal("account"), t.Literal("team")]);
const putBody = t.Object({ role });
const grantee = (p: Record<string, string>): Grantee => ({ kind: p.kind as Grantee["kind"], id: p.granteeId! });

const routesFor = (ctx: AppContext, base: string, kind: Resource["kind"], idParam: "brainId" | "setId") => {
  const params = t.Object({ [idParam]: t.String() } as Record<string, ReturnType<typeof t.String>>);
  const shareParams = t.Object({ [idParam]: t.String(), kind: granteeKind, granteeId: t.String() } as never);
  const resource = (p: Record<string, string>): Resource => ({ kind, id: p[idParam]! });
  return new Elysia({ detail: { tags: ["Shares"] } })
    .use(authGuard(ctx, { GET: "brains:read" }))
    // Who has which role (owners only).
    .get(`${base}/:${idParam}/shares`, async ({ principal, params: p }) => ({ shares: await listShares(ctx.db, principal.account.id, resource(p)) }), {
      params,
    })
    // Share with a person (`account`) or a whole team (`team`) at a role, or change their role (owners only).
    .put(
      `${base}/:${idParam}/shares/:kind/:granteeId`,
      async ({ principal, params: p, body }) => {
        const q = p as unknown as Record<string, string>;
        return { share: await putShare(ctx.db, principal.account, resource(q), grantee(q), body.role, ctx.log) };
      },
      { params: shareParams, body: putBody },
    )
    // Stop sharing (owners), or leave (anyone, their own share); the last owner is 409.
    .delete(
      `${base}/:${idParam}/shares/:kind/:granteeId`,
      async ({ principal, params: p, set }) => {
        await removeShare(ctx.db, principal.account, resource(p as unknown as Record<string, string>), grantee(p as unknown as Record<string, string>), ctx.log);
        set.status = 204;
      },
      { params: shareParams },
    );
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
