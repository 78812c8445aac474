import { t } from "elysia";

export const createKeyBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 100, description: "A label to recognise the key by" }),
});

export const newKeyResponse = t.Object({
  id: t.String(),
  name: t.String(),
  key: t.String({ description: "The full key. Shown exactly once: store it now." }),
  prefix: t.String(),
  hint: t.String(),
  createdAt: t.String(),
});
