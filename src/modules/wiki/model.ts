import { t } from "elysia";
import { MAX_GRAPH_LIMIT } from "./graph";
import { MAX_PAGE_LIMIT } from "./service";

const kind = t.Union([t.Literal("source"), t.Literal("note"), t.Literal("concept")]);
export const brainParams = t.Object({ brainId: t.String({ minLength: 1, maxLength: 100 }) });
export const pageParams = t.Object({ brainId: t.String({ minLength: 1, maxLength: 100 }), slug: t.String({ minLength: 1, maxLength: 200 }) });
export const listQuery = t.Object({
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: MAX_PAGE_LIMIT })),
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
  around: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "centre page slug" })),
  depth: t.Optional(t.Numeric({ minimum: 1, maximum: 3 })),
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: MAX_GRAPH_LIMIT })),
  kind: t.Optional(kind),
});
