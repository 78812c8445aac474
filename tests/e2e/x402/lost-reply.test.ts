// The facilitator settles on chain and its reply is lost (502 after settling, the connection dropped
// mid-reply, or no answer before the client's timeout). The payer retries with the same X-PAYMENT header
// and collects the answer in every configuration: with only BRAINBOX_X402_FACILITATOR_URL (the facilitator's
// "nonce already used" for this payment's own `unknown` row is the proof), and with BRAINBOX_X402_RPC_URL
// beside it (the chain decides). The ledger records one settlement, the money moves once, the answer is
// delivered once, and a nonce used by another payment unlocks nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { decodePaymentResponse, type PaymentPayload, type PaymentRequirements } from "../../../src/pay";
import { newAccount } from "../../support/chain/rig";
import { signPayment } from "../../support/chain/sign";
import { x402Service } from "../../../src/modules/x402";
import { expectJson } from "../../support/server";
import type { Breakage } from "../../x402/support/flaky-proxy";
import { ANSWERABLE, ledgerRow, newPaidBrain, nonceOf, paidAsksRun, payAndCall, startPaidRig, termsOf, type PaidRig } from "../../x402/support/paid-rig";

const PRICE = 25_000n;
const body = { question: ANSWERABLE };
const LOST: Breakage[] = ["lost-reply", "lost-connection", "lost-timeout"];
const SLOW = { timeout: 30_000 };

interface Setup {
  rig: PaidRig;
  brainId: string;
  payTo: string;
  path: string;
  requirements: PaymentRequirements;
}

/** A paid rig with one paid brain; short facilitator timeouts so a reply that never comes costs seconds. */
async function setUp(withRpc: boolean): Promise<Setup> {
  const rig = await startPaidRig((chain) => ({
    BRAINBOX_X402_FACILITATOR_TIMEOUT_MS: "1000",
    ...(withRpc ? { BRAINBOX_X402_RPC_URL: chain.rpcUrl, BRAINBOX_X402_RECONCILE_INTERVAL_MS: "0" } : {}),
  }));
  const payTo = newAccount().address;
  const brainId = await newPaidBrain(rig.server, { priceAtomic: String(PRICE), payTo });
  const path = `/api/x402/${brainId}/ask`;
  return { rig, brainId, payTo, path, requirements: await termsOf(rig.server, path, body) };
}

function helpers(get: () => Setup) {
  const snapshot = async () => {
    const { rig, payTo, brainId } = get();
    return {
      payer: await rig.chain.balanceOf(rig.chain.payer.address),
      payTo: await rig.chain.balanceOf(payTo),
      runs: await paidAsksRun(rig.server, brainId),
      settledRows: await settledRows(),
    };
  };
  const settledRows = async () => {
    const rows = await get().rig.server.ctx.database.client.execute("SELECT count(*) AS n FROM payments WHERE status = 'settled'");
    return Number(rows.rows[0]?.n ?? 0);
  };
  const sign = (authorization?: Parameters<typeof signPayment>[0]["authorization"], privateKey = get().rig.chain.payer.privateKey) =>
    signPayment({ privateKey, requirements: get().requirements, authorization });
  const pay = (header: string) => payAndCall(get().rig.server, get().path, body, header);

  /** Pays with the settle reply lost: 503, no answer, the transfer on chain, the row `unknown`. */
  async function payWithLostReply(header: string, how: Breakage) {
    const { rig } = get();
    const before = await snapshot();
    rig.proxy.break("/settle", how);
    const lost = await expectJson(await pay(header), 503);
    rig.proxy.break("/settle", null);
    expect(lost.error.code).toBe("facilitator_unavailable");
    expect(lost.answer).toBeUndefined();
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "unknown" });
    const charged = await snapshot();
    expect(before.payer - charged.payer).toBe(PRICE); // the money moved and the payer has nothing yet
    expect(charged.payTo - before.payTo).toBe(PRICE);
    return charged;
  }

  /** Settles an authorization on chain without Brainbox (straight at the facilitator): its nonce is used. */
  async function settleElsewhere(payload: PaymentPayload, requirements: PaymentRequirements) {
    const res = await fetch(`${get().rig.facilitator.url}/settle`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ x402Version: 1, paymentPayload: payload, paymentRequirements: requirements }),
    });
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
  }

  /**
   * The payer signs a second authorization with the nonce of `header` (1 unit to another address) and gets
   * it on chain without Brainbox: the nonce is used, but not by a payment for this call.
   */
  async function spendNonceElsewhere(header: string) {
    const other = newAccount().address;
    const terms = { ...get().requirements, payTo: other, maxAmountRequired: "1" };
    const second = await signPayment({ privateKey: get().rig.chain.payer.privateKey, requirements: terms, authorization: { nonce: nonceOf(header) as `0x${string}` } });
    await settleElsewhere(second.payload, terms);
    expect(await get().rig.chain.balanceOf(other)).toBe(1n);
  }

  /** Pays with the settle dropped before the facilitator: the row is `unknown`, nothing moved. */
  async function payWithSettleDown(header: string) {
    get().rig.proxy.break("/settle", "503");
    await expectJson(await pay(header), 503);
    get().rig.proxy.break("/settle", null);
    expect(await ledgerRow(get().rig.server, nonceOf(header))).toMatchObject({ status: "unknown" });
  }

  return { snapshot, settledRows, sign, pay, payWithLostReply, settleElsewhere, spendNonceElsewhere, payWithSettleDown };
}

describe("only BRAINBOX_X402_FACILITATOR_URL (no chain reader)", () => {
  let s: Setup;
  const h = helpers(() => s);
  beforeAll(async () => {
    s = await setUp(false);
  }, 60_000);
  afterAll(async () => {
    await s?.rig.stop();
  });
  beforeEach(() => {
    for (const p of ["/verify", "/settle", "/supported"] as const) s.rig.proxy.break(p, null);
  });

  test("health and the payer's retry say how a lost reply is resolved here", async () => {
    const health = await expectJson(await s.rig.server.api("/api/health", { key: null }), 200);
    expect(health.x402).toEqual({ reconciliation: { mode: "facilitator", backgroundIntervalMs: null } });
  });

  for (const how of LOST) {
    test(`${how} after settling: the same header again delivers the answer once, one settlement, no second transfer`, async () => {
      const { header } = await h.sign();
      const before = await h.snapshot();
      const charged = await h.payWithLostReply(header, how);

      const res = await h.pay(header);
      const paid = await expectJson(res, 200);
      expect(paid.answer).toContain("390 billion");
      // No chain reader: the transfer is known to have landed, its hash is not.
      expect(paid.payment).toEqual({ tx_hash: null, payer: s.rig.chain.payer.address, amount: String(PRICE), settled: true, network: "base" });
      expect(decodePaymentResponse(res.headers.get("x-payment-response")!)).toEqual({ success: true, transaction: "", network: "base", payer: s.rig.chain.payer.address });
      const after = await h.snapshot();
      expect({ payer: after.payer, payTo: after.payTo }).toEqual({ payer: charged.payer, payTo: charged.payTo });
      expect(after.runs).toBe(before.runs + 2); // the withheld run, and the delivered one
      expect(after.settledRows).toBe(before.settledRows + 1);
      expect(await ledgerRow(s.rig.server, nonceOf(header))).toMatchObject({ status: "settled", tx_hash: null, reason: expect.stringMatching(/^nonce_used_per_facilitator: /) });

      // Delivered once: the header is spent now.
      expect((await expectJson(await h.pay(header), 402)).error).toBe("payment_replayed");
      expect((await h.snapshot()).runs).toBe(after.runs);
    }, SLOW);
  }

  test("a fresh payment whose nonce another payment already used on chain: refused, no answer, nothing recorded", async () => {
    const { header, payload } = await h.sign();
    await h.settleElsewhere(payload, s.requirements);
    const before = await h.snapshot();
    const reply = await expectJson(await h.pay(header), 402);
    expect(reply.error).toBe("duplicate_settlement");
    expect(reply.answer).toBeUndefined();
    expect(await h.snapshot()).toEqual(before);
    expect(await ledgerRow(s.rig.server, nonceOf(header))).toBeUndefined();
  });

  test("another payer's authorization with the nonce of a lost payment does not collect it", async () => {
    const { header } = await h.sign();
    await h.payWithLostReply(header, "lost-reply");
    const intruder = await s.rig.chain.newPayer(PRICE);
    const forged = await h.sign({ from: intruder.address, nonce: nonceOf(header) }, intruder.privateKey);
    const before = await h.snapshot();
    const reply = await expectJson(await h.pay(forged.header), 402);
    expect(reply.error).toBe("payment_replayed");
    expect(await h.snapshot()).toEqual(before);
    expect(await ledgerRow(s.rig.server, nonceOf(header))).toMatchObject({ status: "unknown" });
    // The owner of the lost payment still collects it.
    expect((await expectJson(await h.pay(header), 200)).payment.settled).toBe(true);
  });

  test("a settle that never reached the chain: the retry settles it now, with the tx hash", async () => {
    const { header } = await h.sign();
    const before = await h.snapshot();
    s.rig.proxy.break("/settle", "503");
    await expectJson(await h.pay(header), 503);
    s.rig.proxy.break("/settle", null);
    expect((await h.snapshot()).payer).toBe(before.payer);
    const paid = await expectJson(await h.pay(header), 200);
    expect(paid.payment.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const after = await h.snapshot();
    expect(before.payer - after.payer).toBe(PRICE);
    expect(after.settledRows).toBe(before.settledRows + 1);
    expect(await ledgerRow(s.rig.server, nonceOf(header))).toMatchObject({ status: "settled", reason: null });
  });
});

describe("BRAINBOX_X402_RPC_URL beside the facilitator (the chain decides)", () => {
  let s: Setup;
  const h = helpers(() => s);
  beforeAll(async () => {
    s = await setUp(true);
  }, 60_000);
  afterAll(async () => {
    await s?.rig.stop();
  });
  beforeEach(() => {
    for (const p of ["/verify", "/settle", "/supported"] as const) s.rig.proxy.break(p, null);
  });

  test("health says the chain reader reconciles (no background pass when its interval is 0)", async () => {
    const health = await expectJson(await s.rig.server.api("/api/health", { key: null }), 200);
    expect(health.x402).toEqual({ reconciliation: { mode: "chain", backgroundIntervalMs: null } });
  });

  for (const how of LOST) {
    test(`${how} after settling: the retry delivers the answer with the on-chain tx, once`, async () => {
      const { header } = await h.sign();
      const before = await h.snapshot();
      const charged = await h.payWithLostReply(header, how);
      const res = await h.pay(header);
      const paid = await expectJson(res, 200);
      expect(paid.answer).toContain("390 billion");
      const tx = paid.payment.tx_hash as string;
      expect(tx).toMatch(/^0x[0-9a-f]{64}$/);
      expect(paid.payment).toMatchObject({ settled: true, amount: String(PRICE) });
      expect(decodePaymentResponse(res.headers.get("x-payment-response")!).transaction).toBe(tx);
      const after = await h.snapshot();
      expect(after.payer).toBe(charged.payer);
      expect(after.settledRows).toBe(before.settledRows + 1);
      expect(await ledgerRow(s.rig.server, nonceOf(header))).toMatchObject({ status: "settled", tx_hash: tx, reason: null });
      expect((await expectJson(await h.pay(header), 402)).error).toBe("payment_replayed");
    }, SLOW);
  }

  test("a lost payment whose nonce a second authorization spent elsewhere: refused, voided, no answer", async () => {
    const { header } = await h.sign();
    await h.payWithSettleDown(header);
    await h.spendNonceElsewhere(header);
    const before = await h.snapshot();
    const reply = await expectJson(await h.pay(header), 402);
    expect(reply.error).toBe("payment_nonce_spent_elsewhere");
    expect(reply.answer).toBeUndefined();
    expect(await h.snapshot()).toEqual(before); // no run, nothing paid to the brain's owner
    expect(await ledgerRow(s.rig.server, nonceOf(header))).toMatchObject({ status: "voided", reason: expect.stringMatching(/^nonce_spent_elsewhere: 0x/) });
    expect((await expectJson(await h.pay(header), 402)).error).toBe("payment_replayed");
  });

  test("the background pass voids such a row instead of settling it", async () => {
    const { header } = await h.sign();
    await h.payWithSettleDown(header);
    await h.spendNonceElsewhere(header);
    expect(await x402Service(s.rig.server.ctx).paidCall.sweep()).toMatchObject({ checked: 1, voided: 1, settled: 0 });
    expect(await ledgerRow(s.rig.server, nonceOf(header))).toMatchObject({ status: "voided", reason: expect.stringMatching(/^nonce_spent_elsewhere: /) });
    const before = await h.snapshot();
    expect((await expectJson(await h.pay(header), 402)).error).toBe("payment_replayed");
    expect(await h.snapshot()).toEqual(before);
  });

  test("a fresh payment whose nonce another payment already used on chain: refused, no answer", async () => {
    const { header, payload } = await h.sign();
    await h.settleElsewhere(payload, s.requirements);
    const before = await h.snapshot();
    expect((await expectJson(await h.pay(header), 402)).error).toBe("duplicate_settlement");
    expect(await h.snapshot()).toEqual(before);
  });
});

