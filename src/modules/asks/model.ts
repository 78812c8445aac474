// Wire shapes of the ask history.
import { t } from "elysia";

export const MAX_ASK_LIMIT = 100;

export const brainParams = t.Object({ brainId: t.String({ minLength: 1, maxLength: 100 }) });
export const setParams = t.Object({ setId: t.String({ minLength: 1, maxLength: 100 }) });
export const historyQuery = t.Object({
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: MAX_ASK_LIMIT, description: `Asks per page (default 20, at most ${MAX_ASK_LIMIT})` })),
  cursor: t.Optional(t.String({ maxLength: 200, description: "nextCursor of the previous page" })),
});
