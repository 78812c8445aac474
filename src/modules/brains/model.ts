import { t } from "elysia";

export const brainParams = t.Object({ brainId: t.String({ minLength: 1, maxLength: 100 }) });

const name = t.String({ minLength: 1, maxLength: 120, pattern: "\\S" });
const emoji = t.String({ minLength: 1, maxLength: 16 });
const visibility = t.Union([t.Literal("private"), t.Literal("public")]);

export const createBrainBody = t.Object({ name, emoji: t.Optional(emoji), visibility: t.Optional(visibility) });
export const updateBrainBody = t.Object(
  { name: t.Optional(name), emoji: t.Optional(emoji), visibility: t.Optional(visibility) },
  { minProperties: 1 },
);
