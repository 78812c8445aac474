// The paid ask end to end on a real chain: 402 terms, payment with x402's reference client and with raw
// viem signatures, settlement by the facilitator stand-in on anvil, balances moving by exactly the quote,
// and by zero for a thin answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getAddress } from "viem";
import { decodePaymentResponse } from "../../../src/pay";
import { newAccountKey } from "../../support/accounts";
import { newAccount } from "../../support/chain/rig";
import { signPayment, x402PaymentHeader } from "../../support/chain/sign";
import { expectJson } from "../../support/server";
import { newBrain } from "../../support/sources";
import {
  ANSWERABLE,
  ledgerRow,
  newPaidBrain,
  nonceOf,
  paidAsksRun,
  payAndCall,
  startPaidRig,
  termsOf,
  UNANSWERABLE,
  type PaidRig,
} from "../../x402/support/paid-rig";

const PRICE = 25_000n;
let rig: PaidRig;
let brainId: string;
let payTo: string;
let path: string;

beforeAll(async () => {
  rig = await startPaidRig();
  payTo = newAccount().address;
  brainId = await newPaidBrain(rig.server, { priceAtomic: String(PRICE), payTo });
  path = `/api/x402/${brainId}/ask`;
});
afterAll(async () => {
  await rig?.stop();
});

async function balances() {
  return { payer: await rig.chain.balanceOf(rig.chain.payer.address), payTo: await rig.chain.balanceOf(payTo) };
}

describe("POST /api/x402/{brainId}/ask", () => {
  test("without X-Payment: 402 with the x402 v1 terms, network base, the quote and this endpoint's URL", async () => {
    const res = await rig.server.api(path, { method: "POST", json: { question: ANSWERABLE }, key: null });
    const body = await expectJson(res, 402);
    expect(body).toMatchObject({ x402Version: 1, error: "payment_required" });
    expect(body.accepts).toEqual([
      {
        scheme: "exact",
        network: "base",
        maxAmountRequired: String(PRICE),
        asset: getAddress(rig.chain.token),
        payTo,
        resource: `${rig.server.url}${path}`,
        description: expect.stringContaining("thin answer is not charged"),
        mimeType: "application/json",
        maxTimeoutSeconds: 120,
        outputSchema: { input: { type: "http", method: "POST", bodyType: "json", bodyFields: { question: expect.objectContaining({ type: "string", required: true }) } } },
        extra: { name: "USD Coin", version: "2" },
      },
    ]);
    expect(await paidAsksRun(rig.server, brainId)).toBe(0);
  });

  test("paid with x402@1.2.0 createPaymentHeader: 200, citations, tx hash, balances move by exactly the quote", async () => {
    const requirements = await termsOf(rig.server, path, { question: ANSWERABLE });
    const header = await x402PaymentHeader({ privateKey: rig.chain.payer.privateKey, rpcUrl: rig.chain.rpcUrl, requirements });
    const before = await balances();
    const res = await payAndCall(rig.server, path, { question: ANSWERABLE }, header);
    const body = await expectJson(res, 200);
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("390 billion");
    expect(body.citations.length).toBeGreaterThan(0);
    for (const c of body.citations) {
      expect(c).toEqual({ slug: expect.any(String), title: expect.any(String), url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/brains\//) });
    }
    expect(body.payment).toEqual({
      tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      payer: rig.chain.payer.address,
      amount: String(PRICE),
      settled: true,
      network: "base",
    });
    const receipt = decodePaymentResponse(res.headers.get("x-payment-response")!);
    expect(receipt).toEqual({ success: true, transaction: body.payment.tx_hash, network: "base", payer: rig.chain.payer.address });
    const after = await balances();
    expect(before.payer - after.payer).toBe(PRICE);
    expect(after.payTo - before.payTo).toBe(PRICE);
    expect(await rig.chain.ethBalanceOf(rig.chain.payer.address)).toBe(0n); // the facilitator paid the gas
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "settled", tx_hash: body.payment.tx_hash });
  });

  test("paid with a raw viem signature: 200 and exactly the quote moves", async () => {
    const requirements = await termsOf(rig.server, path, { question: ANSWERABLE });
    const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements });
    const before = await balances();
    const body = await expectJson(await payAndCall(rig.server, path, { question: ANSWERABLE }, header), 200);
    expect(body.payment.settled).toBe(true);
    const after = await balances();
    expect(before.payer - after.payer).toBe(PRICE);
    expect(after.payTo - before.payTo).toBe(PRICE);
  });

  test("a thin answer settles nothing: balances unchanged, amount 0, no tx, and the header is spent", async () => {
    const requirements = await termsOf(rig.server, path, { question: UNANSWERABLE });
    const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements });
    const before = await balances();
    const runs = await paidAsksRun(rig.server, brainId);
    const res = await payAndCall(rig.server, path, { question: UNANSWERABLE }, header);
    const body = await expectJson(res, 200);
    expect(body.thin).toBe(true);
    expect(body.citations).toEqual([]);
    expect(body.payment).toEqual({ tx_hash: null, payer: rig.chain.payer.address, amount: "0", settled: false, network: "base" });
    expect(res.headers.get("x-payment-response")).toBeNull();
    expect(await balances()).toEqual(before);
    expect(await paidAsksRun(rig.server, brainId)).toBe(runs + 1);
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "voided", reason: "thin" });
    // A voided authorization never buys a second run (whoever saw the header cannot spend it here).
    const again = await expectJson(await payAndCall(rig.server, path, { question: ANSWERABLE }, header), 402);
    expect(again.error).toBe("payment_replayed");
    expect(await paidAsksRun(rig.server, brainId)).toBe(runs + 1);
    expect(await balances()).toEqual(before);
  });

  test("private, unpaid and absent brains are 404 on the paid path, with or without payment", async () => {
    const requirements = await termsOf(rig.server, path, { question: ANSWERABLE });
    const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements });
    const freePublic = await newBrain(rig.server);
    await expectJson(await rig.server.api(`/api/v1/brains/${freePublic}`, { method: "PATCH", json: { visibility: "public" } }), 200);
    const hidden = await newPaidBrain(rig.server, { priceAtomic: "1000", payTo });
    await expectJson(await rig.server.api(`/api/v1/brains/${hidden}`, { method: "PATCH", json: { visibility: "private" } }), 200);
    for (const id of [freePublic, hidden, "brn_doesnotexist"]) {
      const plain = await rig.server.api(`/api/x402/${id}/ask`, { method: "POST", json: { question: "q" }, key: null });
      expect((await expectJson(plain, 404)).error.code).toBe("not_found");
      expect((await payAndCall(rig.server, `/api/x402/${id}/ask`, { question: "q" }, header)).status).toBe(404);
    }
    expect(await ledgerRow(rig.server, nonceOf(header))).toBeUndefined();
  });

  test("a bad question is 422 before any payment is looked at", async () => {
    const res = await rig.server.api(path, { method: "POST", json: { question: "   " }, key: null, headers: { "X-PAYMENT": "junk" } });
    expect(res.status).toBe(422);
  });

  test("another account cannot read a paid brain with an API key: only the paid rail reaches it", async () => {
    const other = await newAccountKey(rig.server.ctx.db, "Stranger");
    expect((await rig.server.api(`/api/v1/brains/${brainId}`, { key: other })).status).toBe(404);
    expect((await rig.server.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: ANSWERABLE }, key: other })).status).toBe(404);
    const listed = await expectJson(await rig.server.api("/api/brains", { key: other }), 200);
    expect(listed.brains.map((b: { id: string }) => b.id)).not.toContain(brainId);
  });
});
