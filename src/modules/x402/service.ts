// The paid rail of one app context: settings, ledger, the paidCall flow, quotes and the bazaar. The HTTP
// routes here and the MCP tools share it through x402Service(ctx), so there is one ledger and one
// facilitator check per process.
import { ConfigError } from "../../config";
import type { AppContext } from "../../context";
import { AppError } from "../../lib/errors";
import { requirementsV2, type PaymentRequirements, type PaymentRequirementsV2 } from "../../pay";
import { PaymentLedger } from "./ledger";
import { CARD_LIMITS, CLIP_LIMITS, GEO_MAX_PAGES } from "./model";
import { createPaidCall, type PaidCallWithSweep } from "./paid-call";
import { countPaidBrains, listPaidBrains, requirePaidBrain, type PaidBrain } from "./paid-brains";
import { clipsQuote, geoScanQuote, socialImageQuote, type ActionPrices } from "./pricing";
import { createRail, type Rail } from "./rail";

export type AppAction = "geo/scan" | "social/image" | "clips/render";

export interface X402Service {
  rail: Rail;
  ledger: PaymentLedger;
  /** quote → checks → reserve → verify → run → settle (see paid-call.ts); `.sweep()` reconciles unknowns. */
  paidCall: PaidCallWithSweep;
  prices: ActionPrices;
  /** A public paid brain, or null (private, unpaid, absent): lets MCP tell "pay first" from "not found". */
  findPaidBrain(brainId: string): Promise<PaidBrain | null>;
  /** A public paid brain and its terms; 404 for a private, unpaid or absent brain. */
  paidBrainTerms(brainId: string, resource?: string): Promise<{ brain: PaidBrain; requirements: PaymentRequirements }>;
  brainRequirements(brain: PaidBrain, resource?: string): PaymentRequirements;
  /** Terms of an app action for a quote; 404 when app actions are off (no BRAINBOX_X402_PAY_TO). */
  actionRequirements(action: AppAction, amount: bigint): PaymentRequirements;
  bazaar(filter?: BazaarFilter): Promise<Bazaar>;
  /** How a settlement whose reply was lost gets resolved here (start-up log, /api/health). */
  reconciliation: Reconciliation;
  /** Logs what start-up found: paid brains without a facilitator, a facilitator that does not settle base. Starts the reconciler. */
  startupCheck(): Promise<void>;
  /** Stops the background reconciler (server shutdown). */
  stop(): void;
}

/**
 * `chain`: the token's state is read through BRAINBOX_X402_RPC_URL (on the payer's retry, and in the
 * background every `backgroundIntervalMs` unless 0). `facilitator`: no chain reader; the payer's retry
 * with the same payment is resolved by the facilitator's nonce check, within the authorization's validity.
 * `off`: no facilitator, nothing is sold.
 */
export interface Reconciliation {
  mode: "chain" | "facilitator" | "off";
  backgroundIntervalMs: number | null;
}

export interface BazaarFilter {
  type?: string;
  limit?: number;
  offset?: number;
}

/** One resource in the x402 discovery list shape (x402's DiscoveredResource), our details in `metadata`. */
export interface BazaarItem {
  resource: string;
  type: "http";
  x402Version: 1;
  accepts: PaymentRequirements[];
  /** ISO 8601: when these terms last changed. */
  lastUpdated: string;
  metadata: {
    kind: "brain" | "action";
    method: "POST";
    description: string;
    /** The same terms as x402 v2 (PAYMENT-SIGNATURE clients); the endpoint speaks both versions. */
    x402Versions: [1, 2];
    acceptsV2: PaymentRequirementsV2[];
    brain?: { id: string; name: string; slug: string; emoji: string };
    action?: AppAction;
    /** App actions: how the quote grows with the payload (the accepts entry shows the default payload's quote). */
    pricing?: { unit: string; perUnitAtomic: string; defaultUnits: number; maxUnits: number; ceilingAtomic: string };
  };
}

/** x402's ListDiscoveryResourcesResponse. */
export interface Bazaar {
  x402Version: 1;
  items: BazaarItem[];
  pagination: { limit: number; offset: number; total: number };
}

export const BAZAAR_DEFAULT_LIMIT = 100;

const ACTION_TEXT: Record<AppAction, { description: string; input: Record<string, unknown>; mimeType: string }> = {
  "geo/scan": {
    description: "Answer-engine readiness scan of a web page and its site: title, description, headings, JSON-LD, llms.txt, AI crawler rules, a score",
    input: { url: { type: "string", required: true }, maxPages: { type: "integer", minimum: 1, maximum: GEO_MAX_PAGES } },
    mimeType: "application/json",
  },
  "social/image": {
    description: "Share card PNG for a title and text, or for a wiki page of a public brain",
    input: { title: { type: "string" }, text: { type: "string" }, brainId: { type: "string" }, slug: { type: "string" }, width: { type: "integer" }, height: { type: "integer" }, theme: { type: "string", enum: ["dark", "light"] } },
    mimeType: "application/json",
  },
  "clips/render": {
    description: "Animated GIF of quote clips from a wiki page of a public brain",
    input: { brainId: { type: "string", required: true }, slug: { type: "string", required: true }, frames: { type: "integer" }, width: { type: "integer" }, height: { type: "integer" } },
    mimeType: "application/json",
  },
};

const httpSchema = (bodyFields: Record<string, unknown>) => ({ input: { type: "http", method: "POST", bodyType: "json", bodyFields } });

const RECONCILIATION_TEXT: Record<Reconciliation["mode"], { how: string }> = {
  chain: { how: "the chain decides: the payer's retry with the same payment collects it, at any time" },
  facilitator: {
    how: "no BRAINBOX_X402_RPC_URL: the payer's retry with the same payment is resolved by the facilitator's nonce check, before the authorization expires; no background pass",
  },
  off: { how: "no facilitator: nothing is sold" },
};

const services = new WeakMap<AppContext, X402Service>();

/** The rail of this app context; throws X402ConfigError on bad x402 settings (so start-up fails). */
export function x402Service(ctx: AppContext): X402Service {
  let service = services.get(ctx);
  if (!service) services.set(ctx, (service = createX402Service(ctx)));
  return service;
}

function createX402Service(ctx: AppContext): X402Service {
  const { config, db, log } = ctx;
  const rail = createRail(config);
  const ledger = new PaymentLedger(db);
  const paidCall = createPaidCall({ rail, ledger, log });
  const prices: ActionPrices = {
    geoScanPerPage: BigInt(config.x402GeoScanPricePerPage),
    socialImagePerMegapixel: BigInt(config.x402SocialImagePricePerMegapixel),
    clipsPerFrame: BigInt(config.x402ClipsPricePerFrame),
    ceiling: rail.maxPerCall,
  };
  const reconciliation: Reconciliation = {
    mode: !rail.configured ? "off" : rail.chain ? "chain" : "facilitator",
    backgroundIntervalMs: rail.configured && rail.chain && config.x402ReconcileIntervalMs > 0 ? config.x402ReconcileIntervalMs : null,
  };
  const url = (path: string) => `${ctx.publicUrl()}${path}`;
  const askPath = (brainId: string) => `/api/x402/${encodeURIComponent(brainId)}/ask`;

  const brainRequirements = (brain: PaidBrain, resource = url(askPath(brain.id))) =>
    rail.requirements({
      // A price above a ceiling lowered since it was set is charged at the ceiling, never above it.
      amount: brain.priceAtomic > rail.maxPerCall ? rail.maxPerCall : brain.priceAtomic,
      payTo: brain.payTo,
      resource,
      description: `Ask the brain "${brain.name}": a grounded answer with citations; a thin answer is not charged`,
      outputSchema: httpSchema({ question: { type: "string", required: true, description: "The question" } }),
    });

  const actionRequirements = (action: AppAction, amount: bigint) => {
    if (!rail.appPayTo) throw new AppError("not_found", "Paid app actions are not enabled on this server");
    const text = ACTION_TEXT[action];
    return rail.requirements({
      amount,
      payTo: rail.appPayTo,
      resource: url(`/api/x402/${action}`),
      description: text.description,
      mimeType: text.mimeType,
      outputSchema: httpSchema(text.input),
    });
  };

  const startedAt = new Date().toISOString(); // app actions' terms come from config: as old as the process
  const entry = (accepts: PaymentRequirements, lastUpdated: string, metadata: Omit<BazaarItem["metadata"], "x402Versions" | "acceptsV2" | "method">): BazaarItem => ({
    resource: accepts.resource,
    type: "http",
    x402Version: 1,
    accepts: [accepts],
    lastUpdated,
    metadata: { ...metadata, method: "POST", x402Versions: [1, 2], acceptsV2: [requirementsV2(accepts)] },
  });

  const actionItems = (): BazaarItem[] => {
    if (!rail.appPayTo) return [];
    const item = (action: AppAction, amount: bigint, pricing: Omit<NonNullable<BazaarItem["metadata"]["pricing"]>, "ceilingAtomic">): BazaarItem =>
      entry(actionRequirements(action, amount), startedAt, {
        kind: "action",
        action,
        description: ACTION_TEXT[action].description,
        pricing: { ...pricing, ceilingAtomic: String(prices.ceiling) },
      });
    const defaultMegapixels = (CARD_LIMITS.width * CARD_LIMITS.height) / 1e6;
    return [
      item("geo/scan", geoScanQuote(prices, 1), { unit: "page", perUnitAtomic: String(prices.geoScanPerPage), defaultUnits: 1, maxUnits: GEO_MAX_PAGES }),
      item("social/image", socialImageQuote(prices, CARD_LIMITS.width, CARD_LIMITS.height), {
        unit: "megapixel",
        perUnitAtomic: String(prices.socialImagePerMegapixel),
        defaultUnits: defaultMegapixels,
        maxUnits: (CARD_LIMITS.maxWidth * CARD_LIMITS.maxHeight) / 1e6,
      }),
      item("clips/render", clipsQuote(prices, CLIP_LIMITS.frames), {
        unit: "frame",
        perUnitAtomic: String(prices.clipsPerFrame),
        defaultUnits: CLIP_LIMITS.frames,
        maxUnits: CLIP_LIMITS.maxFrames,
      }),
    ];
  };

  let reconcileTimer: ReturnType<typeof setInterval> | undefined;
  let sweeping = false;
  const startReconciler = () => {
    if (!rail.chain || config.x402ReconcileIntervalMs === 0 || reconcileTimer) return;
    reconcileTimer = setInterval(() => {
      if (sweeping) return; // a slow node must not stack passes
      sweeping = true;
      paidCall
        .sweep()
        .then((r) => r.checked > 0 && log.info("x402 reconciliation pass", { ...r }))
        .catch((error: unknown) => log.warn("x402 reconciliation pass failed", { error: error instanceof Error ? error.message : String(error) }))
        .finally(() => (sweeping = false));
    }, config.x402ReconcileIntervalMs);
    reconcileTimer.unref?.();
  };

  return {
    rail,
    ledger,
    paidCall,
    prices,
    reconciliation,
    brainRequirements,
    actionRequirements,

    stop() {
      if (reconcileTimer) clearInterval(reconcileTimer);
      reconcileTimer = undefined;
    },

    findPaidBrain: (brainId) => requirePaidBrain(db, brainId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "not_found") return null;
      throw error;
    }),

    async paidBrainTerms(brainId, resource) {
      const brain = await requirePaidBrain(db, brainId);
      return { brain, requirements: brainRequirements(brain, resource) };
    },

    async bazaar(filter = {}) {
      const limit = filter.limit ?? BAZAAR_DEFAULT_LIMIT;
      const offset = filter.offset ?? 0;
      // Nothing is live without a facilitator: listing terms nobody can settle would only cost payers.
      // Every resource here is `http`: another type filter lists nothing.
      if (!rail.configured || (filter.type !== undefined && filter.type !== "http")) return { x402Version: 1, items: [], pagination: { limit, offset, total: 0 } };
      const brains = (await listPaidBrains(db)).map((brain) =>
        entry(brainRequirements(brain), new Date(brain.updatedAt).toISOString(), {
          kind: "brain",
          description: `Ask the brain "${brain.name}"`,
          brain: { id: brain.id, name: brain.name, slug: brain.slug, emoji: brain.emoji },
        }),
      );
      const all = [...brains, ...actionItems()];
      return { x402Version: 1, items: all.slice(offset, offset + limit), pagination: { limit, offset, total: all.length } };
    },

    async startupCheck() {
      if (!rail.configured) {
        const paid = await countPaidBrains(db);
        // Fail fast: charging needs a facilitator, and there is no default host to fall back on.
        if (paid > 0)
          throw new ConfigError([
            `${paid} brain(s) are paid but no x402 facilitator is configured: set BRAINBOX_X402_FACILITATOR_URL (or BRAINBOX_X402_RPC_URL + BRAINBOX_X402_GAS_PRIVATE_KEY), or stop charging with DELETE /api/v1/brains/{id}/paid`,
          ]);
        return;
      }
      startReconciler();
      log.info("x402 reconciliation of lost settlement replies", { ...reconciliation, ...RECONCILIATION_TEXT[reconciliation.mode] });
      // Warmed in the background: a facilitator that is down must not delay the start of free brains.
      void rail.facilitator().then(
        () => log.info("x402 facilitator ready", { url: config.x402FacilitatorUrl ?? "embedded" }),
        (error: unknown) =>
          log.warn("x402 facilitator not ready; paid calls answer 503 until it is", { error: error instanceof Error ? error.message : String(error) }),
      );
    },
  };
}
