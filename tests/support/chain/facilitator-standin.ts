// A facilitator on loopback speaking the standard x402 HTTP API, backed by the embedded facilitator,
// so a settle really submits transferWithAuthorization on anvil. Switches simulate outages.
import type { Hex } from "viem";
import { createEmbeddedFacilitator } from "../../../src/pay/embedded-facilitator.ts";
import { FacilitatorUnavailableError, type SupportedKind } from "../../../src/pay/facilitator.ts";
import type { PaymentPayload, PaymentRequirements } from "../../../src/pay/wire.ts";

export interface FacilitatorStandIn {
  url: string;
  /** "METHOD /path" of every request, in arrival order. */
  calls: string[];
  /** Down: every endpoint answers 503. */
  setDown(down: boolean): void;
  /** A reason makes /settle answer {success:false, errorReason} without touching the chain; null restores. */
  setSettleFailure(reason: string | null): void;
  /** Delay before answering, to exercise client timeouts. */
  setDelayMs(ms: number): void;
  /** Overrides what /supported lists. */
  setSupported(kinds: SupportedKind[] | null): void;
  stop(): Promise<void>;
}

export function startFacilitator(options: { rpcUrl: string; gasKey: Hex }): FacilitatorStandIn {
  const inner = createEmbeddedFacilitator({ rpcUrl: options.rpcUrl, gasPrivateKey: options.gasKey });
  const calls: string[] = [];
  let down = false;
  let settleFailure: string | null = null;
  let delayMs = 0;
  let supported: SupportedKind[] | null = null;

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      calls.push(`${request.method} ${path}`);
      if (delayMs > 0) await Bun.sleep(delayMs);
      if (down) return Response.json({ error: "facilitator down" }, { status: 503 });
      try {
        if (request.method === "GET" && path === "/supported") {
          return Response.json({ kinds: supported ?? (await inner.supported()) });
        }
        if (request.method !== "POST" || (path !== "/verify" && path !== "/settle")) {
          return Response.json({ error: "not found" }, { status: 404 });
        }
        const body = (await request.json().catch(() => null)) as {
          x402Version?: unknown;
          paymentPayload?: PaymentPayload;
          paymentRequirements?: PaymentRequirements;
        } | null;
        if (!body || body.x402Version !== 1 || !body.paymentPayload || !body.paymentRequirements) {
          return Response.json({ error: "expected {x402Version:1, paymentPayload, paymentRequirements}" }, { status: 400 });
        }
        if (path === "/verify") return Response.json(await inner.verify(body.paymentPayload, body.paymentRequirements));
        if (settleFailure !== null) {
          return Response.json({ success: false, errorReason: settleFailure, transaction: "", network: "base" });
        }
        return Response.json(await inner.settle(body.paymentPayload, body.paymentRequirements));
      } catch (error) {
        const status = error instanceof FacilitatorUnavailableError ? 503 : 500;
        return Response.json({ error: error instanceof Error ? error.message : String(error) }, { status });
      }
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    calls,
    setDown: (value) => void (down = value),
    setSettleFailure: (reason) => void (settleFailure = reason),
    setDelayMs: (ms) => void (delayMs = ms),
    setSupported: (kinds) => void (supported = kinds),
    stop: () => server.stop(true),
  };
}
