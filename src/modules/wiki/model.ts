import { t } from "elysia";
import { MAX_PAGE_LIMIT } from "./service";

export const brainParams = t.Object({ brainId: t.String({ minLength: 1, maxLength: 100 }) });
export const pageParams = t.Object({ brainId: t.String({ minLength: 1, maxLength: 100 }), slug: t.String({ minLength: 1, maxLength: 200 }) });
export const listQuery = t.Object({
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: MAX_PAGE_LIMIT })),
  cursor: t.Optional(t.String({ maxLength: 200, description: "nextCursor of the previous page" })),
});
