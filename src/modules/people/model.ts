import { t } from "elysia";
import { PASSWORD_MAX_LENGTH } from "./passwords";

export const signInBody = t.Object({
  email: t.String({ minLength: 1, maxLength: 254 }),
  password: t.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
});

export const personView = t.Object({
  id: t.String(),
  name: t.String(),
  email: t.Union([t.String(), t.Null()]),
  isAdmin: t.Boolean(),
  hasPassword: t.Boolean(),
  deactivatedAt: t.Union([t.String(), t.Null()]),
  createdAt: t.String(),
});

export const sessionView = t.Object({
  id: t.String(),
  method: t.String(),
  createdAt: t.String(),
  expiresAt: t.String(),
  idleExpiresAt: t.String(),
});
