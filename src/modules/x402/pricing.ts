// Quotes of the app actions: computed from the payload before the job (with `exact` the signed value is
// what moves), growing with the work asked for, never above the per-call ceiling and never zero.

export interface ActionPrices {
  geoScanPerPage: bigint;
  socialImagePerMegapixel: bigint;
  clipsPerFrame: bigint;
  ceiling: bigint;
}

const clamp = (amount: bigint, ceiling: bigint) => (amount < 1n ? 1n : amount > ceiling ? ceiling : amount);

/** geo/scan: per page requested (maxPages), since the quote must be known before any page is fetched. */
export const geoScanQuote = (p: ActionPrices, maxPages: number) => clamp(p.geoScanPerPage * BigInt(maxPages), p.ceiling);

/** social/image: per pixel area, rounded up to a whole atomic unit. */
export const socialImageQuote = (p: ActionPrices, width: number, height: number) =>
  clamp((p.socialImagePerMegapixel * BigInt(width * height) + 999_999n) / 1_000_000n, p.ceiling);

/** clips/render: per frame rendered. */
export const clipsQuote = (p: ActionPrices, frames: number) => clamp(p.clipsPerFrame * BigInt(frames), p.ceiling);
