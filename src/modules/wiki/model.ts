import { t } from "elysia";
import { wholeNumber } from "../../lib/whole-number";
import { MAX_GRAPH_LIMIT } from "./graph";
import { MAX_PAGE_LIMIT } from "./service";

const kind = t.Union([t.Literal("source"), t.Literal("note"), t.Literal("concept")]);

// Ids in paths are any string: one that names nothing the caller can reach is a 404 from the service,
// the same answer as a missing brain, whatever its length (no 422 that tells "malformed" from "absent").
export const brainParams = t.Object({ brainId: t.String() });
export const pageParams = t.Object({ brainId: t.String(), slug: t.String() });
/** The `limit` query parameter as a number, 422 naming it when outside 1..MAX_PAGE_LIMIT. */
export const pageLimit = (raw: string | undefined) => wholeNumber("limit", raw, 1, MAX_PAGE_LIMIT);

export const listQuery = t.Object({
  // Checked in the handler (pageLimit, lib/whole-number.ts).
  limit: t.Optional(t.String({ maxLength: 12, description: `Pages per batch, a whole number from 1 to ${MAX_PAGE_LIMIT}` })),
  cursor: t.Optional(t.String({ maxLength: 200, description: "nextCursor of the previous page" })),
  kind: t.Optional(kind),
});
// Size and emptiness of `markdown` are checked by the service (413 / 422 with the field named).
export const pageEdit = t.Object({
  markdown: t.String({ description: "The page's new markdown; [[slug]] and [[slug|Title]] link pages" }),
  title: t.Optional(t.String()),
  baseRevision: t.Optional(t.Integer({ minimum: 1, description: "409 when the page is no longer at this revision" })),
});
export const graphQuery = t.Object({
  // Any slug: one that names no page is a 404, like a missing page.
  around: t.Optional(t.String({ minLength: 1, description: "centre page slug" })),
  // Checked in the handler (graphOptions).
  depth: t.Optional(t.String({ maxLength: 12, description: "hops around the centre page, 1 to 3 (default 1)" })),
  limit: t.Optional(t.String({ maxLength: 12, description: `pages, 1 to ${MAX_GRAPH_LIMIT}` })),
  kind: t.Optional(kind),
});

/** The graph query's numbers, each a 422 naming it when it is no whole number in range. */
export const graphOptions = (query: typeof graphQuery.static) => ({
  ...query,
  depth: wholeNumber("depth", query.depth, 1, 3),
  limit: wholeNumber("limit", query.limit, 1, MAX_GRAPH_LIMIT),
});
