// When the facilitator is down, answers nonsense, or fails to settle after the job: never a result without
// a settlement, never a settlement without a result, and a nonce released only when no job ran.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { decodePaymentResponse, type PaymentRequirements } from "../../../src/pay";
import { newAccount } from "../../support/chain/rig";
import { signPayment } from "../../support/chain/sign";
import { expectJson, startTestServer, tempDir } from "../../support/server";
import { newBrain } from "../../support/sources";
import { startFacilitator } from "../../support/chain/facilitator-standin";
import { startPaidAsk, ANSWERABLE, ledgerRow, newPaidBrain, nonceOf, paidAsksRun, payAndCall, termsOf, type PaidRig } from "../../x402/support/paid-rig";

const PRICE = 30_000n;
let rig: PaidRig;
let brainId: string;
let payTo: string;
let path: string;
let requirements: PaymentRequirements;
const body = { question: ANSWERABLE };

beforeAll(async () => {
  ({ rig, brainId, payTo, path, requirements } = await startPaidAsk(PRICE));
});
afterAll(async () => {
  await rig?.stop();
});
beforeEach(() => {
  rig.facilitator.setDown(false);
  rig.facilitator.setSettleFailure(null);
  for (const p of ["/verify", "/settle", "/supported"] as const) rig.proxy.break(p, null);
});

async function snapshot() {
  return { payer: await rig.chain.balanceOf(rig.chain.payer.address), payTo: await rig.chain.balanceOf(payTo), runs: await paidAsksRun(rig.server, brainId) };
}
const sign = () => signPayment({ privateKey: rig.chain.payer.privateKey, requirements });

describe("facilitator unavailable before the job", () => {
  test("down: 503, no job, nothing settled, the nonce released; back up: the same header pays", async () => {
    const { header } = await sign();
    const before = await snapshot();
    rig.facilitator.setDown(true);
    const res = await payAndCall(rig.server, path, body, header);
    const reply = await expectJson(res, 503);
    expect(reply.error.code).toBe("facilitator_unavailable");
    expect(res.headers.get("retry-after")).toBe("30");
    expect(await snapshot()).toEqual(before);
    expect(await ledgerRow(rig.server, nonceOf(header))).toBeUndefined();

    rig.facilitator.setDown(false);
    const paid = await expectJson(await payAndCall(rig.server, path, body, header), 200);
    expect(paid.payment.settled).toBe(true);
    const after = await snapshot();
    expect(before.payer - after.payer).toBe(PRICE);
    expect(after.runs).toBe(before.runs + 1);
  });

  test("verify answers something that is not x402: 502, no job, nothing settled, nonce released", async () => {
    const { header } = await sign();
    const before = await snapshot();
    rig.proxy.break("/verify", "garbage");
    const reply = await expectJson(await payAndCall(rig.server, path, body, header), 502);
    expect(reply.error.code).toBe("facilitator_bad_response");
    expect(await snapshot()).toEqual(before);
    expect(await ledgerRow(rig.server, nonceOf(header))).toBeUndefined();
  });
});

describe("settlement failing after the job", () => {
  test("settle refused: the result is withheld, 402 with the failing X-PAYMENT-RESPONSE, nothing moved, header spent", async () => {
    const { header } = await sign();
    const before = await snapshot();
    rig.facilitator.setSettleFailure("unexpected_settle_error");
    const res = await payAndCall(rig.server, path, body, header);
    const reply = await expectJson(res, 402);
    expect(reply).toMatchObject({ x402Version: 1, error: "unexpected_settle_error", accepts: [requirements], payer: rig.chain.payer.address });
    expect(reply.answer).toBeUndefined();
    expect(reply.citations).toBeUndefined();
    expect(decodePaymentResponse(res.headers.get("x-payment-response")!)).toEqual({
      success: false,
      transaction: "",
      network: "base",
      payer: rig.chain.payer.address,
      errorReason: "unexpected_settle_error",
    });
    const after = await snapshot();
    expect(after.runs).toBe(before.runs + 1); // the job ran, then its result was withheld
    expect({ payer: after.payer, payTo: after.payTo }).toEqual({ payer: before.payer, payTo: before.payTo });
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "voided", reason: "settle_failed: unexpected_settle_error" });

    rig.facilitator.setSettleFailure(null);
    expect((await expectJson(await payAndCall(rig.server, path, body, header), 402)).error).toBe("payment_replayed");
  });

  test("settle unreachable: 503, result withheld, the nonce kept as unknown (the transfer may have landed)", async () => {
    const { header } = await sign();
    const before = await snapshot();
    rig.proxy.break("/settle", "503");
    const reply = await expectJson(await payAndCall(rig.server, path, body, header), 503);
    expect(reply.error.code).toBe("facilitator_unavailable");
    expect(reply.error.message).toContain("withheld");
    expect(reply.answer).toBeUndefined();
    const after = await snapshot();
    expect({ payer: after.payer, payTo: after.payTo }).toEqual({ payer: before.payer, payTo: before.payTo });
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "unknown" });
    rig.proxy.break("/settle", null);
    // The same header again is not a replay: the transfer never landed (no RPC here: the facilitator's verify
    // says the nonce is unused), so it is verified and settled now, and the payer gets the answer, once.
    const paid = await expectJson(await payAndCall(rig.server, path, body, header), 200);
    expect(paid.payment).toMatchObject({ settled: true, amount: String(PRICE) });
    const end = await snapshot();
    expect(before.payer - end.payer).toBe(PRICE);
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "settled", tx_hash: paid.payment.tx_hash });
    expect((await expectJson(await payAndCall(rig.server, path, body, header), 402)).error).toBe("payment_replayed");
  });

  test("settle answers nonsense: 502, result withheld, nonce kept", async () => {
    const { header } = await sign();
    rig.proxy.break("/settle", "garbage");
    const reply = await expectJson(await payAndCall(rig.server, path, body, header), 502);
    expect(reply.error.code).toBe("facilitator_bad_response");
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "unknown" });
  });
});

describe("facilitator settings", () => {
  test("a facilitator that does not list {1, exact, base}: paid calls answer 503 facilitator_unsupported, 402 terms still shown", async () => {
    const standIn = startFacilitator({ rpcUrl: rig.chain.rpcUrl, gasKey: rig.chain.gasKey });
    standIn.setSupported([{ x402Version: 1, scheme: "exact", network: "base-sepolia" }]);
    const server = await startTestServer({
      BRAINBOX_X402_FACILITATOR_URL: standIn.url,
      BRAINBOX_X402_ASSET: rig.chain.token,
    });
    try {
      const id = await newPaidBrain(server, { priceAtomic: "1000", payTo });
      const terms = await termsOf(server, `/api/x402/${id}/ask`, body);
      const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements: terms });
      const reply = await expectJson(await payAndCall(server, `/api/x402/${id}/ask`, body, header), 503);
      expect(reply.error.code).toBe("facilitator_unsupported");
      expect(reply.error.message).toContain("base-sepolia");
      expect(standIn.calls.filter((c) => c !== "GET /supported")).toEqual([]); // never verified, never settled
    } finally {
      await server.close();
      await standIn.stop();
    }
  });

  test("the embedded facilitator (RPC URL + gas key, no facilitator URL) settles on the chain itself", async () => {
    const server = await startTestServer({
      BRAINBOX_X402_RPC_URL: rig.chain.rpcUrl,
      BRAINBOX_X402_GAS_PRIVATE_KEY: rig.chain.gasKey,
      BRAINBOX_X402_ASSET: rig.chain.token,
    });
    try {
      const receiver = newAccount().address;
      const id = await newPaidBrain(server, { priceAtomic: "7000", payTo: receiver });
      const terms = await termsOf(server, `/api/x402/${id}/ask`, body);
      const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements: terms });
      const paid = await expectJson(await payAndCall(server, `/api/x402/${id}/ask`, body, header), 200);
      expect(paid.payment).toMatchObject({ settled: true, amount: "7000" });
      expect(await rig.chain.balanceOf(receiver)).toBe(7000n);
    } finally {
      await server.close();
    }
  });

  test("app actions on (BRAINBOX_X402_PAY_TO) without a facilitator: the server refuses to start", async () => {
    const [one, two] = [tempDir(), tempDir()];
    try {
      await expect(startTestServer({ BRAINBOX_X402_PAY_TO: newAccount().address }, one)).rejects.toThrow(/BRAINBOX_X402_FACILITATOR_URL/);
      await expect(startTestServer({ BRAINBOX_X402_FACILITATOR_URL: "http://127.0.0.1:9", BRAINBOX_X402_PAY_TO: "0x1234" }, two)).rejects.toThrow(
        /BRAINBOX_X402_PAY_TO is not an address/,
      );
    } finally {
      for (const dir of [one, two]) rmSync(dir, { recursive: true, force: true });
    }
  });

  test("without a facilitator an owner cannot make a brain paid (409) and the bazaar is empty", async () => {
    const server = await startTestServer();
    try {
      const id = await newBrain(server);
      const reply = await expectJson(await server.api(`/api/v1/brains/${id}/paid`, { method: "PUT", json: { priceAtomic: "1000", payTo } }), 409);
      expect(reply.error.message).toContain("BRAINBOX_X402_FACILITATOR_URL");
      expect(await expectJson(await server.api("/api/x402/bazaar", { key: null }), 200)).toEqual({ x402Version: 1, items: [], pagination: { limit: 100, offset: 0, total: 0 } });
      // A paid brain left from when a facilitator was configured: 503, no terms nobody could settle.
      await server.ctx.database.client.execute({ sql: "INSERT INTO paid_brains (brain_id, price_atomic, pay_to) VALUES (?, 1000, ?)", args: [id, payTo] });
      await expectJson(await server.api(`/api/v1/brains/${id}`, { method: "PATCH", json: { visibility: "public" } }), 200);
      const ask = await expectJson(await server.api(`/api/x402/${id}/ask`, { method: "POST", json: body, key: null }), 503);
      expect(ask.error.code).toBe("x402_unconfigured");
    } finally {
      await server.close();
    }
  });
});
