import { t } from "elysia";
import { invalid } from "../../lib/errors";
import { MAX_PAGE_LIMIT } from "./service";

// Ids in paths are any string: one that names nothing the caller can reach is a 404 from the service,
// the same answer as a missing brain, whatever its length (no 422 that tells "malformed" from "absent").
export const brainParams = t.Object({ brainId: t.String() });
export const pageParams = t.Object({ brainId: t.String(), slug: t.String() });
/** The `limit` query parameter as a number, 422 naming it when outside 1..MAX_PAGE_LIMIT. */
export function pageLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const limit = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_PAGE_LIMIT)) throw invalid("limit", `limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}`);
  return limit;
}

export const listQuery = t.Object({
  // Checked in the handler (pageLimit): Elysia's numeric query types let 1.5 through to SQL and report
  // range errors without the field's name.
  limit: t.Optional(t.String({ maxLength: 12, description: `Pages per batch, a whole number from 1 to ${MAX_PAGE_LIMIT}` })),
  cursor: t.Optional(t.String({ maxLength: 200, description: "nextCursor of the previous page" })),
});
