// Wire shapes of the ask history.
import { t } from "elysia";

export const MAX_ASK_LIMIT = 100;

// Any id: one the caller cannot reach is the same 404 as a missing brain or set (see brains/model).
export { brainParams } from "../brains/model";
export const setParams = t.Object({ setId: t.String() });
export const historyQuery = t.Object({
  // Checked by listAsks (lib/whole-number.ts).
  limit: t.Optional(t.String({ maxLength: 12, description: `Asks per page (default 20, at most ${MAX_ASK_LIMIT})` })),
  cursor: t.Optional(t.String({ maxLength: 200, description: "nextCursor of the previous page" })),
});
