import { t } from "elysia";

const name = t.String({ minLength: 1, maxLength: 120, pattern: "\\S" });
const advisors = t.Array(t.String({ minLength: 1 }), { minItems: 1, maxItems: 4, description: "1 to 4 advisor brain ids" });

export const createSetBody = t.Object({ name, primaryBrainId: t.String({ minLength: 1 }), advisorBrainIds: advisors });
export const updateSetBody = t.Object(
  { name: t.Optional(name), primaryBrainId: t.Optional(t.String({ minLength: 1 })), advisorBrainIds: t.Optional(advisors) },
  { minProperties: 1 },
);
export const setParams = t.Object({ setId: t.String() });
