import { t } from "elysia";

export const createKeyBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 100, description: "A label to recognise the key by" }),
  readOnly: t.Optional(t.Boolean({ description: "Only ask, context and reads; every write answers 403 forbidden" })),
  expiresAt: t.Optional(t.String({ format: "date-time", description: "After this instant (ISO 8601, in the future) the key answers 401" })),
});

export const newKeyResponse = t.Object({
  id: t.String(),
  name: t.String(),
  key: t.String({ description: "The full key. Shown exactly once: store it now." }),
  prefix: t.String(),
  hint: t.String(),
  createdAt: t.String(),
  readOnly: t.Boolean(),
  expiresAt: t.Union([t.String(), t.Null()]),
});
