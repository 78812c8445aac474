import type { AppContext } from "../../context";

/** The absolute address of a wiki page: what every citation links to (readable with access to the brain). */
export const pageUrl = (ctx: AppContext, brainId: string, slug: string) =>
  `${ctx.publicUrl()}/api/v1/brains/${encodeURIComponent(brainId)}/pages/${encodeURIComponent(slug)}`;
