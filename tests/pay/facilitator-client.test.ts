// The HTTP facilitator client against misbehaving facilitators: outages, timeouts, wrong answers.
// No chain: every case here fails before a facilitator would touch one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  assertFacilitatorSupportsBase,
  createHttpFacilitator,
  FacilitatorProtocolError,
  FacilitatorUnavailableError,
  FacilitatorUnsupportedError,
} from "../../src/pay/facilitator.ts";
import { makeRequirements, type PaymentPayload } from "../../src/pay/wire.ts";
import { startFacilitator, type FacilitatorStandIn } from "../support/chain/facilitator-standin.ts";
import { newAccount } from "../support/chain/rig.ts";
import { signPayment } from "../support/chain/sign.ts";

const requirements = makeRequirements({
  maxAmountRequired: 1_000n,
  asset: newAccount().address,
  payTo: newAccount().address,
  resource: "https://kb.example/api/x402/b1/ask",
  description: "Ask",
  maxTimeoutSeconds: 60,
  extra: { name: "USD Coin", version: "2" },
});
let payload: PaymentPayload;
let standIn: FacilitatorStandIn;
let oddServer: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  payload = (await signPayment({ privateKey: newAccount().privateKey, requirements })).payload;
  standIn = startFacilitator({ rpcUrl: "http://127.0.0.1:9", gasKey: newAccount().privateKey });
  // Answers like a misconfigured URL would: HTML, 404s, 400 error bodies.
  oddServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/html/verify") return new Response("<html>hello</html>", { headers: { "content-type": "text/html" } });
      if (path === "/rejecting/verify") return Response.json({ isValid: false, invalidReason: "invalid_payload" }, { status: 400 });
      if (path === "/rejecting/settle") return Response.json({ error: "bad request" }, { status: 400 });
      if (path === "/busy/verify") return new Response("slow down", { status: 429 });
      return new Response("not found", { status: 404 });
    },
  });
});

afterAll(async () => {
  await standIn?.stop();
  await oddServer?.stop(true);
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("createHttpFacilitator", () => {
  test("down (503) on every endpoint is FacilitatorUnavailableError", async () => {
    const client = createHttpFacilitator(standIn.url, { timeoutMs: 1_000 });
    standIn.setDown(true);
    try {
      for (const call of [client.supported(), client.verify(payload, requirements), client.settle(payload, requirements)]) {
        const error = await failure(call);
        expect(error).toBeInstanceOf(FacilitatorUnavailableError);
        expect((error as FacilitatorUnavailableError).message).toContain("503");
      }
    } finally {
      standIn.setDown(false);
    }
    expect(standIn.calls).toEqual(["GET /supported", "POST /verify", "POST /settle"]);
  });

  test("a facilitator whose chain RPC is down answers 503, surfacing as unavailable", async () => {
    const client = createHttpFacilitator(standIn.url, { timeoutMs: 5_000 });
    expect(await failure(client.verify(payload, requirements))).toBeInstanceOf(FacilitatorUnavailableError);
  });

  test("nothing listening is FacilitatorUnavailableError", async () => {
    const gone = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${gone.port}`;
    await gone.stop(true);
    const error = await failure(createHttpFacilitator(url, { timeoutMs: 1_000 }).verify(payload, requirements));
    expect(error).toBeInstanceOf(FacilitatorUnavailableError);
    expect(error).toMatchObject({ code: "facilitator_unavailable", operation: "verify" });
  });

  test("no answer within timeoutMs is FacilitatorUnavailableError", async () => {
    const client = createHttpFacilitator(standIn.url, { timeoutMs: 100, settleTimeoutMs: 100 });
    standIn.setDelayMs(1_000);
    try {
      // The stand-in answers after 1 s: the error naming the 100 ms bound shows the timeout ended the call.
      const error = await failure(client.settle(payload, requirements));
      expect(error).toBeInstanceOf(FacilitatorUnavailableError);
      expect(String(error)).toContain("within 100 ms");
    } finally {
      standIn.setDelayMs(0);
    }
  });

  test("429 is unavailable (retry later), not a verdict on the payment", async () => {
    const client = createHttpFacilitator(`http://127.0.0.1:${oddServer.port}/busy`, { timeoutMs: 1_000 });
    expect(await failure(client.verify(payload, requirements))).toBeInstanceOf(FacilitatorUnavailableError);
  });

  test("a 400 carrying a verify verdict is the verdict; other non-x402 answers are protocol errors", async () => {
    const rejecting = createHttpFacilitator(`http://127.0.0.1:${oddServer.port}/rejecting/`, { timeoutMs: 1_000 });
    expect(await rejecting.verify(payload, requirements)).toEqual({ isValid: false, invalidReason: "invalid_payload" });
    expect(await failure(rejecting.settle(payload, requirements))).toBeInstanceOf(FacilitatorProtocolError);
    const html = createHttpFacilitator(`http://127.0.0.1:${oddServer.port}/html`, { timeoutMs: 1_000 });
    expect(await failure(html.verify(payload, requirements))).toBeInstanceOf(FacilitatorProtocolError);
    expect(await failure(html.supported())).toBeInstanceOf(FacilitatorProtocolError);
  });

  test("assertFacilitatorSupportsBase names what the facilitator does support", async () => {
    const client = createHttpFacilitator(standIn.url, { timeoutMs: 1_000 });
    await assertFacilitatorSupportsBase(client);
    standIn.setSupported([
      { x402Version: 1, scheme: "exact", network: "base-sepolia" },
      { x402Version: 2, scheme: "exact", network: "eip155:8453" },
    ]);
    try {
      const error = await failure(assertFacilitatorSupportsBase(client));
      expect(error).toBeInstanceOf(FacilitatorUnsupportedError);
      expect(String(error)).toContain('x402 v1 "exact" on "base"');
      expect(String(error)).toContain("v1/exact/base-sepolia, v2/exact/eip155:8453");
    } finally {
      standIn.setSupported(null);
    }
  });
});
