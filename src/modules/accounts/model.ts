import { t } from "elysia";

export const plan = t.Union([t.Literal("free"), t.Literal("pro"), t.Literal("team")]);
export const createAccountBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 120, pattern: "\\S" }),
  plan: t.Optional(plan),
  email: t.Optional(t.String({ format: "email", maxLength: 254, description: "The person's email: invitations to it can be accepted with this account" })),
});
export const setPlanBody = t.Object({ plan });
export const accountParams = t.Object({ accountId: t.String() });
