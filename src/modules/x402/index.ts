// The paid rail over HTTP: owner settings (account mode), and the keyless x402 endpoints where payment is
// the credential: the bazaar, the paid ask and the three app actions. Each paid handler validates and
// quotes first (404/422 cost nothing), then hands the job to the one paidCall flow.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { invalid } from "../../lib/errors";
import { authGuard } from "../auth/guard";
import { getBrainView, ownedBrain } from "../brains/service";
import { renderClip } from "./actions/clips";
import { geoScan, preflightUrl } from "./actions/geo-scan";
import { renderCardPng } from "./actions/social-image";
import { plainText, quotableSentences, requirePublicPage } from "./actions/wiki-page";
import { answerPaidQuestion } from "./ask";
import { bazaarPage, bazaarQuery, brainParams, CARD_LIMITS, CLIP_LIMITS, clipsBody, geoScanBody, paidAskBody, paidTermsBody, socialImageBody } from "./model";
import type { PaidCallOutcome, PaymentReceipt } from "./paid-call";
import { clearPaid, parseTerms, requireFacilitatorForPaid, requirePaidBrain, setPaid } from "./paid-brains";
import { clipsQuote, geoScanQuote, socialImageQuote } from "./pricing";
import { x402Service } from "./service";

export { x402Service, type X402Service, type AppAction, type Bazaar, type BazaarItem } from "./service";
export type { PaidCall, PaidCallInput, PaidCallOutcome, PaymentReceipt } from "./paid-call";
export type { PresentedPayment } from "./presented";
export { answerPaidQuestion, type PaidAnswer } from "./ask";
export type { PaidBrain } from "./paid-brains";

/** 200 with the shaped result and X-PAYMENT-RESPONSE, or the outcome's 402/502/503 as it is. */
function reply<T>(outcome: PaidCallOutcome<T>, shape: (result: T, payment: PaymentReceipt) => unknown): Response {
  if (!outcome.ok) return Response.json(outcome.body, { status: outcome.status, headers: outcome.headers });
  return Response.json(shape(outcome.result, outcome.payment), { status: 200, headers: outcome.headers });
}

/** The raw bytes when the client asked for them (`Accept: image/...`), the payment in headers. */
function rawImage<T>(outcome: PaidCallOutcome<T>, bytes: (result: T) => Buffer, mimeType: string): Response {
  if (!outcome.ok) return Response.json(outcome.body, { status: outcome.status, headers: outcome.headers });
  return new Response(new Uint8Array(bytes(outcome.result)), { status: 200, headers: { ...outcome.headers, "content-type": mimeType } });
}

const wants = (request: Request, mimeType: string) => (request.headers.get("accept") ?? "").includes(mimeType);

/**
 * The payment in either dialect: X-PAYMENT (x402 v1) or PAYMENT-SIGNATURE (v2). Read from the request's own
 * headers: a handler naming Elysia's `headers` makes every route of the app copy all request headers.
 */
const presented = (headers: Headers) => ({ v1: headers.get("x-payment") ?? undefined, v2: headers.get("payment-signature") ?? undefined });

export const x402Routes = (ctx: AppContext) => {
  const x402 = x402Service(ctx); // throws on bad x402 settings: the server does not start
  const fetchAllow = ctx.config.fetchAllowHosts;

  // Account mode: the brain's owner sets or clears its price.
  const owner = new Elysia({ detail: { tags: ["x402"] } })
    .use(authGuard(ctx))
    // Charge per question: {priceAtomic, payTo, visibility?}; a private brain needs an explicit visibility.
    .put(
      "/api/v1/brains/:brainId/paid",
      async ({ principal, params, body }) => {
        // The caller's role first: a viewer learns nothing about the server's payment setup.
        await ownedBrain(ctx.db, principal.account.id, params.brainId);
        requireFacilitatorForPaid(x402.rail.configured);
        const visibility = await setPaid(ctx.db, principal.account.id, params.brainId, parseTerms(body, x402.rail.maxPerCall), body.visibility);
        return { brain: await getBrainView(ctx.db, principal.account.id, params.brainId), visibility, forSale: visibility === "public" };
      },
      { params: brainParams, body: paidTermsBody, detail: { summary: "Charge per question for a brain (x402); says the resulting visibility" } },
    )
    // Stop charging; the brain keeps its visibility.
    .delete(
      "/api/v1/brains/:brainId/paid",
      async ({ principal, params }) => {
        await clearPaid(ctx.db, principal.account.id, params.brainId);
        return { brain: await getBrainView(ctx.db, principal.account.id, params.brainId) };
      },
      { params: brainParams, detail: { summary: "Stop charging for a brain" } },
    );

  // Keyless: payment is the credential.
  const paid = new Elysia({ detail: { tags: ["x402"] } })
    // Every live paid endpoint with its URL and `accepts` terms.
    .get("/api/x402/bazaar", ({ query }) => x402.bazaar({ type: query.type, ...bazaarPage(query) }), { query: bazaarQuery, detail: { summary: "Public index of paid endpoints (x402 discovery list)" } })
    // Paid ask: 402 with the terms, then verify, answer, settle last; a thin answer is not settled.
    .post(
      "/api/x402/:brainId/ask",
      async ({ params, body, request }) => {
        // A payer has no identity to own a conversation: refused before any payment is asked for.
        if (body.conversationId !== undefined)
          throw invalid("conversationId", "A paid ask has no conversation: a payer has no account to own one. Ask each question standalone.");
        const brain = await requirePaidBrain(ctx.db, params.brainId);
        const outcome = await x402.paidCall({
          requirements: x402.brainRequirements(brain),
          payment: presented(request.headers),
          subject: { brainId: brain.id },
          run: () => answerPaidQuestion(ctx, brain, body.question),
        });
        return reply(outcome, (result, payment) => ({ ...result, payment }));
      },
      { params: brainParams, body: paidAskBody, detail: { summary: "Ask a paid brain (x402)" } },
    )
    // Answer-engine readiness of a site; quote = pages requested × price per page.
    .post(
      "/api/x402/geo/scan",
      async ({ body, request }) => {
        preflightUrl(body.url, fetchAllow);
        const maxPages = body.maxPages ?? 1;
        const outcome = await x402.paidCall({
          requirements: x402.actionRequirements("geo/scan", geoScanQuote(x402.prices, maxPages)),
          payment: presented(request.headers),
          subject: { action: "geo/scan" },
          run: async () => ({
            result: await geoScan(
              { url: body.url, maxPages },
              { allowHosts: fetchAllow, timeoutMs: ctx.config.fetchTimeoutMs, maxBytes: Math.min(ctx.config.fetchMaxBytes, 5 * 1024 * 1024) },
            ),
            thin: false,
          }),
        });
        return reply(outcome, (report, payment) => ({ report, payment }));
      },
      { body: geoScanBody, detail: { summary: "Answer-engine readiness scan (x402)" } },
    )
    // Share card PNG; quote = pixel area × price per megapixel. JSON with base64, or raw with Accept: image/png.
    .post(
      "/api/x402/social/image",
      async ({ body, request }) => {
        if (body.slug !== undefined && body.brainId === undefined) throw invalid("brainId", "brainId is required with slug");
        if (body.brainId !== undefined && body.slug === undefined) throw invalid("slug", "slug is required with brainId");
        const page = body.brainId && body.slug ? await requirePublicPage(ctx.db, body.brainId, body.slug) : null;
        const title = body.title ?? page?.title;
        if (!title) throw invalid("title", "title is required (or brainId and slug of a public wiki page)");
        const width = body.width ?? CARD_LIMITS.width;
        const height = body.height ?? CARD_LIMITS.height;
        const text = body.text ?? (page ? plainText(page.markdown).slice(0, 300) : undefined);
        const footer = page ? `${page.brainName} - Brainbox` : undefined;
        const outcome = await x402.paidCall({
          requirements: x402.actionRequirements("social/image", socialImageQuote(x402.prices, width, height)),
          payment: presented(request.headers),
          subject: { action: "social/image" },
          run: async () => ({ result: await renderCardPng({ title, text, footer, width, height, theme: body.theme ?? "dark" }), thin: false }),
        });
        if (wants(request, "image/png")) return rawImage(outcome, (png) => png, "image/png");
        return reply(outcome, (png, payment) => ({
          image: { mimeType: "image/png", width, height, bytes: png.length, base64: png.toString("base64") },
          payment,
        }));
      },
      { body: socialImageBody, detail: { summary: "Render a share card PNG (x402)" } },
    )
    // Quote clips of a public wiki page as a looping GIF; quote = frames × price per frame.
    .post(
      "/api/x402/clips/render",
      async ({ body, request }) => {
        const page = await requirePublicPage(ctx.db, body.brainId, body.slug);
        const frames = body.frames ?? CLIP_LIMITS.frames;
        const width = body.width ?? CLIP_LIMITS.width;
        const height = body.height ?? CLIP_LIMITS.height;
        const found = quotableSentences(plainText(page.markdown), 3);
        const quotes = found.length > 0 ? found : [page.title];
        const outcome = await x402.paidCall({
          requirements: x402.actionRequirements("clips/render", clipsQuote(x402.prices, frames)),
          payment: presented(request.headers),
          subject: { action: "clips/render" },
          // A page with nothing to quote is a thin result: nothing is settled.
          run: async () => ({ result: await renderClip({ title: page.title, quotes, frames, width, height }), thin: found.length === 0 }),
        });
        if (wants(request, "image/gif")) return rawImage(outcome, (clip) => clip.gif, "image/gif");
        return reply(outcome, (clip, payment) => ({
          gif: { mimeType: "image/gif", width, height, frames: clip.frames, durationMs: clip.durationMs, bytes: clip.gif.length, base64: clip.gif.toString("base64") },
          quotes: clip.quotes,
          page: { brainId: body.brainId, slug: page.slug, title: page.title },
          payment,
        }));
      },
      { body: clipsBody, detail: { summary: "Render quote clips as an animated GIF (x402)" } },
    );

  return new Elysia()
    .use(paid)
    .use(owner);
};
