import { t } from "elysia";
import { MAX_PAGE_LIMIT } from "./service";

// Ids in paths are any string: one that names nothing the caller can reach is a 404 from the service,
// the same answer as a missing brain, whatever its length (no 422 that tells "malformed" from "absent").
export const brainParams = t.Object({ brainId: t.String() });
export const pageParams = t.Object({ brainId: t.String(), slug: t.String() });
export const listQuery = t.Object({
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: MAX_PAGE_LIMIT })),
  cursor: t.Optional(t.String({ maxLength: 200, description: "nextCursor of the previous page" })),
});
