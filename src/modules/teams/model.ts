import { t } from "elysia";

const name = t.String({ minLength: 1, maxLength: 120, pattern: "\\S" });
export const teamRole = t.Union([t.Literal("admin"), t.Literal("member")]);

export const teamParams = t.Object({ teamId: t.String() });
export const memberParams = t.Object({ teamId: t.String(), accountId: t.String() });
export const createTeamBody = t.Object({ name });
export const updateTeamBody = t.Object(
  {
    name: t.Optional(name),
    plan: t.Optional(t.Union([t.Literal("team"), t.Null()], { description: "Installation admin only: `team` makes the members share one quota" })),
    keyPolicy: t.Optional(
      t.Object(
        {
          readOnly: t.Optional(t.Boolean({ description: "The members' new API keys must be read-only" })),
          maxDays: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 3650 }), t.Null()], { description: "The members' new API keys must expire within this many days; null: no rule" })),
        },
        { minProperties: 1, description: "Team admin only: what the members' new API keys must be" },
      ),
    ),
  },
  { minProperties: 1 },
);
export const addMemberBody = t.Object(
  {
    accountId: t.Optional(t.String({ minLength: 1 })),
    email: t.Optional(t.String({ format: "email", maxLength: 254 })),
    role: t.Optional(teamRole),
  },
  { minProperties: 1 },
);
export const changeRoleBody = t.Object({ role: teamRole });
