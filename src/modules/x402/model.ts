// Wire shapes of the paid rail: owner settings, the paid ask and the three app actions.
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { wholeNumber } from "../../lib/whole-number";

// Ids in paths are any string: one that names nothing the caller can reach is a 404 from the service,
// the same answer as a missing brain, whatever its length (no 422 that tells "malformed" from "absent").
export const brainParams = t.Object({ brainId: t.String() });

// Numbers in bodies are TypeBox's own Integer: Elysia's t.Integer also takes "5" and makes it 5.
const integer = (options: Parameters<typeof Type.Integer>[0]) => Type.Integer(options);

export const paidTermsBody = t.Object({
  // Loosely typed here, checked in parseTerms, so every mistake names `priceAtomic` (not a union branch).
  priceAtomic: t.Union([t.String({ maxLength: 40 }), t.Number()], {
    description: "Price of one question in atomic units of the asset, a decimal string or whole number (USDC: 6 decimals, 10000 = $0.01)",
  }),
  payTo: t.String({ description: "EVM address that receives the payments" }),
  // Checked in setPaid, so a private brain without it gets one clear `visibility_required` error.
  visibility: t.Optional(
    t.String({
      maxLength: 20,
      description: '"public" (sold on the rail) or "private" (terms kept, not sold until made public). Required when the brain is private: paying never makes a brain public silently',
    }),
  ),
});

export const bazaarQuery = t.Object({
  type: t.Optional(t.String({ maxLength: 40, description: 'Resource type; every resource here is "http"' })),
  // Parsed by bazaarPage, so a bad value names its field in the error.
  limit: t.Optional(t.String({ maxLength: 12, description: "Items per page, 1..1000, default 100" })),
  offset: t.Optional(t.String({ maxLength: 12, description: "Items to skip, default 0" })),
});

/** The bazaar's `limit` and `offset`, or a 422 naming the one that is wrong. */
export function bazaarPage(query: { limit?: string; offset?: string }): { limit?: number; offset?: number } {
  return { limit: wholeNumber("limit", query.limit, 1, 1000), offset: wholeNumber("offset", query.offset, 0, 1_000_000) };
}

export const paidAskBody = t.Object({
  question: t.String({ minLength: 1, maxLength: 4000, pattern: "\\S", description: "The question, in any language" }),
  // Named only to be refused (422): a payer has no account to own a conversation (docs/conversations.md).
  conversationId: t.Optional(t.Unknown({ description: "Not accepted: a paid ask has no conversation" })),
});

export const GEO_MAX_PAGES = 10;
export const geoScanBody = t.Object({
  url: t.String({ minLength: 1, maxLength: 2048, description: "http(s) page to scan; other pages of the same site are followed from it" }),
  maxPages: t.Optional(integer({ minimum: 1, maximum: GEO_MAX_PAGES, description: "Pages to scan (the quote is per page), default 1" })),
});

export const CARD_LIMITS = { minWidth: 200, maxWidth: 2400, minHeight: 100, maxHeight: 1260, width: 1200, height: 630 } as const;
export const socialImageBody = t.Object({
  title: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "Card title; defaults to the page title with brainId+slug" })),
  text: t.Optional(t.String({ maxLength: 600, description: "Line under the title; defaults to the page's opening with brainId+slug" })),
  brainId: t.Optional(t.String({ minLength: 1, description: "A public free brain, with slug: card for that wiki page" })),
  slug: t.Optional(t.String({ minLength: 1 })),
  width: t.Optional(integer({ minimum: CARD_LIMITS.minWidth, maximum: CARD_LIMITS.maxWidth, description: "Pixels, default 1200" })),
  height: t.Optional(integer({ minimum: CARD_LIMITS.minHeight, maximum: CARD_LIMITS.maxHeight, description: "Pixels, default 630" })),
  theme: t.Optional(t.Union([t.Literal("dark"), t.Literal("light")])),
});

export const CLIP_LIMITS = { minFrames: 2, maxFrames: 120, frames: 24, minWidth: 160, maxWidth: 640, width: 480, minHeight: 90, maxHeight: 360, height: 270 } as const;
export const clipsBody = t.Object({
  brainId: t.String({ minLength: 1, description: "A public free brain" }),
  slug: t.String({ minLength: 1, description: "The wiki page to quote" }),
  frames: t.Optional(integer({ minimum: CLIP_LIMITS.minFrames, maximum: CLIP_LIMITS.maxFrames, description: "Frames in the GIF (the quote is per frame), default 24" })),
  width: t.Optional(integer({ minimum: CLIP_LIMITS.minWidth, maximum: CLIP_LIMITS.maxWidth, description: "Pixels, default 480" })),
  height: t.Optional(integer({ minimum: CLIP_LIMITS.minHeight, maximum: CLIP_LIMITS.maxHeight, description: "Pixels, default 270" })),
});
