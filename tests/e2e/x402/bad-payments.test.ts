// Payments that must not buy a job, or must not be settled. For each: the status and reason, that the
// paid ask's job did not run, and that no token moved on the chain.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { PaymentPayload, PaymentRequirements } from "../../../src/pay";
import { newAccount } from "../../support/chain/rig";
import { encodePaymentHeader, signPayment, type SignOptions } from "../../support/chain/sign";
import { expectJson } from "../../support/server";
import { startPaidAsk, ANSWERABLE, ledgerRow, nonceOf, paidAsksRun, payAndCall, type PaidRig } from "../../x402/support/paid-rig";

const PRICE = 40_000n;
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

let before: { payer: bigint; payTo: bigint; runs: number };
beforeEach(async () => {
  before = await snapshot();
});

async function snapshot() {
  return {
    payer: await rig.chain.balanceOf(rig.chain.payer.address),
    payTo: await rig.chain.balanceOf(payTo),
    runs: await paidAsksRun(rig.server, brainId),
  };
}

const sign = (options: Partial<SignOptions> = {}) => signPayment({ privateKey: rig.chain.payer.privateKey, requirements, ...options });
const now = () => Math.floor(Date.now() / 1000);
const withAuth = (p: PaymentPayload, change: Partial<PaymentPayload["payload"]["authorization"]>): PaymentPayload => ({
  ...p,
  payload: { ...p.payload, authorization: { ...p.payload.authorization, ...change } },
});

/** 402 with `reason`, the terms again, no job, nothing moved. */
async function expectRefused(header: string, reason: string) {
  const reply = await expectJson(await payAndCall(rig.server, path, body, header), 402);
  expect(reply.error).toBe(reason);
  expect(reply.accepts).toEqual([requirements]);
  expect(await snapshot()).toEqual(before);
  return reply;
}

describe("refused before the job, nothing settled", () => {
  test("wrong payTo", async () => {
    await expectRefused((await sign({ authorization: { to: newAccount().address } })).header, "payment_recipient");
  });

  test("wrong asset or EIP-712 domain (another token, name, version or chain)", async () => {
    await expectRefused((await sign({ domain: { verifyingContract: newAccount().address } })).header, "payment_invalid_signature");
    await expectRefused((await sign({ domain: { name: "USDC" } })).header, "payment_invalid_signature");
    await expectRefused((await sign({ domain: { version: "1" } })).header, "payment_invalid_signature");
    await expectRefused((await sign({ domain: { chainId: 84532 } })).header, "payment_invalid_signature");
  });

  test("wrong network, in either spelling", async () => {
    await expectRefused((await sign({ tamper: (p) => ({ ...p, network: "base-sepolia" }) })).header, "payment_network");
    await expectRefused((await sign({ tamper: (p) => ({ ...p, network: "eip155:8453" }) })).header, "payment_network");
  });

  test("value tampered after signing", async () => {
    await expectRefused((await sign({ tamper: (p) => withAuth(p, { value: String(PRICE * 10n) }) })).header, "payment_amount");
    const raised = await sign({ authorization: { value: "1" }, tamper: (p) => withAuth(p, { value: String(PRICE) }) });
    await expectRefused(raised.header, "payment_invalid_signature");
  });

  test("value above or below the quote, even properly signed", async () => {
    await expectRefused((await sign({ authorization: { value: String(PRICE + 1n) } })).header, "payment_amount");
    await expectRefused((await sign({ authorization: { value: String(PRICE - 1n) } })).header, "payment_amount");
  });

  test("signature by another key than authorization.from", async () => {
    const thief = newAccount();
    const { header } = await signPayment({ privateKey: thief.privateKey, requirements, authorization: { from: rig.chain.payer.address } });
    await expectRefused(header, "payment_invalid_signature");
  });

  test("expired validBefore, future validAfter, validBefore too far out", async () => {
    await expectRefused((await sign({ authorization: { validBefore: String(now() - 5) } })).header, "payment_expired");
    await expectRefused((await sign({ authorization: { validBefore: String(now() + 10) } })).header, "payment_expired"); // no time left to run and settle
    await expectRefused((await sign({ authorization: { validAfter: String(now() + 60) } })).header, "payment_not_yet_valid");
    await expectRefused((await sign({ authorization: { validBefore: String(now() + 3600) } })).header, "payment_window_too_long");
  });

  test("insufficient balance: the facilitator refuses at verify, the nonce is released", async () => {
    const poor = await rig.chain.newPayer(PRICE - 1n);
    const { header } = await signPayment({ privateKey: poor.privateKey, requirements });
    const reply = await expectRefused(header, "insufficient_funds");
    expect(reply.payer).toBe(poor.address);
    expect(await ledgerRow(rig.server, nonceOf(header))).toBeUndefined();
    expect(await rig.chain.balanceOf(poor.address)).toBe(PRICE - 1n);
  });

  test("x402Version 2", async () => {
    const { payload } = await sign();
    await expectRefused(encodePaymentHeader({ ...payload, x402Version: 2 }), "payment_version");
  });

  test("malformed base64, JSON and shapes", async () => {
    await expectRefused("%%%not-base64%%%", "payment_malformed");
    await expectRefused(Buffer.from("not json").toString("base64"), "payment_malformed");
    await expectRefused(encodePaymentHeader([1, 2, 3]), "payment_malformed");
    await expectRefused(encodePaymentHeader({ x402Version: 1, scheme: "exact", network: "base" }), "payment_malformed");
    const { payload } = await sign();
    await expectRefused(encodePaymentHeader(withAuth(payload, { value: "1e6" })), "payment_malformed");
    await expectRefused("A".repeat(9_000), "payment_malformed"); // past 8 KiB, refused before decoding
  });
});

describe("one authorization, one job", () => {
  test("replay of a settled header: the second call is refused and nothing moves again", async () => {
    const { header } = await sign();
    expect((await expectJson(await payAndCall(rig.server, path, body, header), 200)).payment.settled).toBe(true);
    const paid = await snapshot();
    expect(before.payer - paid.payer).toBe(PRICE);
    const reply = await expectJson(await payAndCall(rig.server, path, body, header), 402);
    expect(reply.error).toBe("payment_replayed");
    expect(await snapshot()).toEqual(paid);
  });

  test("three concurrent copies of one header: exactly one 200, one job, one transfer", async () => {
    const { header } = await sign();
    const replies = await Promise.all([0, 1, 2].map(() => payAndCall(rig.server, path, body, header)));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 402, 402]);
    for (const r of replies.filter((r) => r.status === 402)) expect((await r.json()).error).toBe("payment_replayed");
    const after = await snapshot();
    expect(before.payer - after.payer).toBe(PRICE);
    expect(after.payTo - before.payTo).toBe(PRICE);
    expect(after.runs).toBe(before.runs + 1);
  });

  test("the same nonce in another hex case is the same authorization", async () => {
    const { payload, header } = await sign();
    expect((await payAndCall(rig.server, path, body, header)).status).toBe(200);
    const upper = withAuth(payload, { nonce: `0x${payload.payload.authorization.nonce.slice(2).toUpperCase()}` });
    const reply = await expectJson(await payAndCall(rig.server, path, body, encodePaymentHeader(upper)), 402);
    expect(reply.error).toBe("payment_replayed");
  });
});
