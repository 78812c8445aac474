// Teams over HTTP (v1 only; the unversioned surface has no teams). Reading needs `account:read` from an
// OAuth token; changing a team is for people's own API keys (owner-only, like key management).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { addMemberBody, changeRoleBody, createTeamBody, memberParams, teamParams, updateTeamBody } from "./model";
import { addMember, changeRole, createTeam, getTeam, listMembers, listTeams, removeMember, renameTeam, setKeyPolicy, setTeamPlan } from "./service";

export const teamRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: "/api/v1/teams", detail: { tags: ["Teams"] } })
    .use(authGuard(ctx, { GET: "account:read" }))
    // The teams the caller belongs to, with the caller's role in each.
    .get("", async ({ principal }) => ({ teams: await listTeams(ctx.db, principal.account.id) }))
    // A new team; the caller is its first admin.
    .post(
      "",
      async ({ principal, body, set }) => {
        set.status = 201;
        return { team: await createTeam(ctx.db, principal.account, body.name.trim(), ctx.log) };
      },
      { body: createTeamBody },
    )
    // One team (members only; 404 for anyone else).
    .get("/:teamId", async ({ principal, params }) => ({ team: await getTeam(ctx.db, principal.account.id, params.teamId) }), { params: teamParams })
    // Rename or set the key policy (team admin), or set the plan (installation admin).
    .patch(
      "/:teamId",
      async ({ principal, params, body }) => {
        let team = body.name !== undefined ? await renameTeam(ctx.db, principal.account, params.teamId, body.name.trim()) : undefined;
        if (body.plan !== undefined) team = await setTeamPlan(ctx.db, principal.account, params.teamId, body.plan);
        if (body.keyPolicy !== undefined) team = await setKeyPolicy(ctx.db, principal.account, params.teamId, body.keyPolicy, ctx.log);
        return { team: team! };
      },
      { params: teamParams, body: updateTeamBody },
    )
    // The members with their roles (any member may see them).
    .get("/:teamId/members", async ({ principal, params }) => ({ members: await listMembers(ctx.db, principal.account.id, params.teamId) }), {
      params: teamParams,
    })
    // An admin adds a person who already has an account, by id or email (others are invited: /api/v1/invitations).
    .post(
      "/:teamId/members",
      async ({ principal, params, body, set }) => {
        set.status = 201;
        return { member: await addMember(ctx.db, principal.account, params.teamId, body, body.role ?? "member", ctx.log) };
      },
      { params: teamParams, body: addMemberBody },
    )
    // An admin changes a member's role; the last admin stepping down is 409.
    .patch(
      "/:teamId/members/:accountId",
      async ({ principal, params, body }) => ({
        member: await changeRole(ctx.db, principal.account, params.teamId, params.accountId, body.role, ctx.log),
      }),
      { params: memberParams, body: changeRoleBody },
    )
    // An admin removes a member, or a member leaves; the last admin leaving is 409.
    .delete(
      "/:teamId/members/:accountId",
      async ({ principal, params, set }) => {
        await removeMember(ctx.db, principal.account, params.teamId, params.accountId, ctx.log);
        set.status = 204;
      },
      { params: memberParams },
    );
