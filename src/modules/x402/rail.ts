// The paid rail's settings and facilitator, built once per app context from the configuration.
// Config mistakes throw while the app is built (so `serve` fails at start); whether the facilitator
// settles `exact` on `base` is checked lazily, at the first paid request, and cached once it passes:
// a facilitator that is down at boot must not keep the whole server (and its free brains) down.
import { getAddress, isAddress, type Hex } from "viem";
import type { Config } from "../../config";
import {
  assertFacilitatorSupportsBase,
  createChainState,
  createEmbeddedFacilitator,
  type ChainState,
  createHttpFacilitator,
  makeRequirements,
  type Facilitator,
  type PaymentRequirements,
} from "../../pay";

export class X402ConfigError extends Error {
  override readonly name = "X402ConfigError";
}

/** No facilitator is configured: paid requests answer 503 with this. */
export class RailUnconfiguredError extends Error {
  override readonly name = "RailUnconfiguredError";
  readonly code = "x402_unconfigured";
}

export interface QuoteInput {
  amount: bigint;
  payTo: string;
  /** Absolute URL of the paid endpoint. */
  resource: string;
  description: string;
  mimeType?: string;
  outputSchema?: Record<string, unknown>;
}

export interface Rail {
  /** A facilitator is configured (HTTP URL, or RPC URL + gas key for the embedded one). */
  readonly configured: boolean;
  /** Receives the app actions' payments; null when app actions are off. */
  readonly appPayTo: string | null;
  /** The token paid in (checksummed). */
  readonly asset: string;
  /** Ceiling of every quote, atomic units. */
  readonly maxPerCall: bigint;
  /** Quote → one `accepts` entry (asset, domain and timeout from config). */
  requirements(input: QuoteInput): PaymentRequirements;
  /** The facilitator, once it has listed {1, exact, base}; throws RailUnconfiguredError or the check's error. */
  facilitator(): Promise<Facilitator>;
  /** The token's on-chain view (BRAINBOX_X402_RPC_URL), to reconcile lost settlements; null without an RPC URL. */
  readonly chain: ChainState | null;
}

/** Throws X402ConfigError on settings that could only fail later, at a payer's expense. */
export function createRail(config: Config): Rail {
  const problems: string[] = [];
  if (!isAddress(config.x402Asset, { strict: false })) problems.push(`BRAINBOX_X402_ASSET is not an address: ${config.x402Asset}`);
  if (config.x402PayTo !== undefined && !isAddress(config.x402PayTo, { strict: false }))
    problems.push(`BRAINBOX_X402_PAY_TO is not an address: ${config.x402PayTo}`);
  // The RPC URL beside a facilitator URL is a read-only node for reconciliation; with a gas key and no
  // facilitator URL it runs the embedded facilitator.
  const embedded = config.x402GasPrivateKey !== undefined || (config.x402RpcUrl !== undefined && !config.x402FacilitatorUrl);
  if (embedded && !(config.x402RpcUrl && config.x402GasPrivateKey))
    problems.push("the embedded facilitator needs both BRAINBOX_X402_RPC_URL and BRAINBOX_X402_GAS_PRIVATE_KEY");
  if (config.x402GasPrivateKey !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(config.x402GasPrivateKey))
    problems.push("BRAINBOX_X402_GAS_PRIVATE_KEY must be 0x and 64 hex digits");
  if (config.x402GasPrivateKey !== undefined && config.x402FacilitatorUrl) problems.push("set BRAINBOX_X402_FACILITATOR_URL or the embedded facilitator, not both");
  const configured = Boolean(config.x402FacilitatorUrl || embedded);
  // App actions are "paid features on": they need somewhere to settle from the first request.
  if (config.x402PayTo !== undefined && !configured)
    problems.push("BRAINBOX_X402_PAY_TO turns the paid app actions on: set BRAINBOX_X402_FACILITATOR_URL too");
  if (problems.length) throw new X402ConfigError(`x402 configuration: ${problems.join("; ")}`);

  const facilitator: Facilitator | null = config.x402FacilitatorUrl
    ? createHttpFacilitator(config.x402FacilitatorUrl, { timeoutMs: config.x402FacilitatorTimeoutMs })
    : embedded
      ? createEmbeddedFacilitator({
          rpcUrl: config.x402RpcUrl!,
          gasPrivateKey: config.x402GasPrivateKey as Hex,
          rpcTimeoutMs: config.x402FacilitatorTimeoutMs,
        })
      : null;

  let ready: Promise<Facilitator> | undefined;
  return {
    configured,
    chain: config.x402RpcUrl ? createChainState({ rpcUrl: config.x402RpcUrl, timeoutMs: config.x402FacilitatorTimeoutMs }) : null,
    asset: getAddress(config.x402Asset.toLowerCase()),
    appPayTo: config.x402PayTo ? getAddress(config.x402PayTo.toLowerCase()) : null,
    maxPerCall: BigInt(config.x402MaxPerCall),
    requirements: (q) =>
      makeRequirements({
        maxAmountRequired: q.amount,
        asset: getAddress(config.x402Asset.toLowerCase()),
        payTo: q.payTo,
        resource: q.resource,
        description: q.description,
        mimeType: q.mimeType,
        outputSchema: q.outputSchema,
        maxTimeoutSeconds: config.x402MaxTimeoutSeconds,
        extra: { name: config.x402AssetName, version: config.x402AssetVersion },
      }),
    facilitator() {
      if (!facilitator) return Promise.reject(new RailUnconfiguredError("no x402 facilitator is configured (BRAINBOX_X402_FACILITATOR_URL)"));
      // One check shared by concurrent first requests; forgotten on failure so the next request retries.
      ready ??= assertFacilitatorSupportsBase(facilitator).then(
        () => facilitator,
        (error: unknown) => {
          ready = undefined;
          throw error;
        },
      );
      return ready;
    },
  };
}
