import { t } from "elysia";

// Ids in paths are any string: one that names nothing the caller can reach is a 404 from the service,
// the same answer as a missing brain, whatever its length (no 422 that tells "malformed" from "absent").
export const brainParams = t.Object({ brainId: t.String() });

const name = t.String({ minLength: 1, maxLength: 120, pattern: "\\S" });
const emoji = t.String({ minLength: 1, maxLength: 16 });
const visibility = t.Union([t.Literal("private"), t.Literal("public")]);

export const createBrainBody = t.Object({
  name,
  emoji: t.Optional(emoji),
  visibility: t.Optional(visibility),
  teamId: t.Optional(t.String({ description: "Make the brain the team's (the team gets the owner role); the caller must be a member" })),
});
export const updateBrainBody = t.Object(
  { name: t.Optional(name), emoji: t.Optional(emoji), visibility: t.Optional(visibility) },
  { minProperties: 1 },
);
