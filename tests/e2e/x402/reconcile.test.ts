// A payer never loses money: the facilitator settles on chain and its reply is lost (a stand-in behind a
// proxy that forwards /settle, lets the transfer land on anvil, then answers 502). The same payment
// presented again collects the answer (the token's authorizationState says it was used; the tx hash comes
// from the AuthorizationUsed log), and the background reconciler settles `unknown` rows on its own, from
// a second replica on the same database, leaving the answer to the payer's retry. Nothing moves twice.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm";
import { createPublicClient, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { loadConfig } from "../../../src/config";
import { createLogger } from "../../../src/lib/log";
import { x402Service } from "../../../src/modules/x402";
import { decodePaymentResponse, type PaymentRequirements } from "../../../src/pay";
import { startServer, type Running } from "../../../src/runtime";
import { newAccount } from "../../support/chain/rig";
import { signPayment } from "../../support/chain/sign";
import { expectJson } from "../../support/server";
import { ANSWERABLE, ledgerRow, newPaidBrain, nonceOf, paidAsksRun, payAndCall, startPaidRig, termsOf, type PaidRig } from "../../x402/support/paid-rig";

const PRICE = 40_000n;
let rig: PaidRig;
let brainId: string;
let payTo: string;
let path: string;
let requirements: PaymentRequirements;
const body = { question: ANSWERABLE };

beforeAll(async () => {
  // RPC URL beside the facilitator URL: a read-only node for reconciliation. No timer here (0): each test
  // drives the retry or the sweep itself; the timer runs on the second replica below.
  rig = await startPaidRig((chain) => ({ BRAINBOX_X402_RPC_URL: chain.rpcUrl, BRAINBOX_X402_RECONCILE_INTERVAL_MS: "0" }));
  payTo = newAccount().address;
  brainId = await newPaidBrain(rig.server, { priceAtomic: String(PRICE), payTo });
  path = `/api/x402/${brainId}/ask`;
  requirements = await termsOf(rig.server, path, body);
});
afterAll(async () => {
  await rig?.stop();
});
beforeEach(() => {
  for (const p of ["/verify", "/settle", "/supported"] as const) rig.proxy.break(p, null);
});

async function snapshot() {
  return { payer: await rig.chain.balanceOf(rig.chain.payer.address), payTo: await rig.chain.balanceOf(payTo), runs: await paidAsksRun(rig.server, brainId) };
}
const sign = () => signPayment({ privateKey: rig.chain.payer.privateKey, requirements });

/** Pays once with the settle reply lost: 503, nothing delivered, the transfer on chain, the row `unknown`. */
async function payWithLostReply(header: string) {
  rig.proxy.break("/settle", "lost-reply");
  const lost = await expectJson(await payAndCall(rig.server, path, body, header), 503);
  rig.proxy.break("/settle", null);
  expect(lost.error.code).toBe("facilitator_unavailable");
  expect(lost.answer).toBeUndefined();
  expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "unknown" });
}

/** The transaction that used the authorization, straight from the chain. */
async function usedBy(payer: string, nonce: string): Promise<string> {
  const reader = createPublicClient({ transport: http(rig.chain.rpcUrl) });
  const logs = await reader.getLogs({
    address: rig.chain.token,
    event: { type: "event", name: "AuthorizationUsed", inputs: [{ type: "address", name: "authorizer", indexed: true }, { type: "bytes32", name: "nonce", indexed: true }] },
    args: { authorizer: payer as Hex, nonce: nonce as Hex },
    fromBlock: 0n,
  });
  expect(logs).toHaveLength(1);
  return logs[0]!.transactionHash!;
}

describe("settled on chain, reply lost", () => {
  test("the same header again delivers the answer with the on-chain tx; the money moved exactly once", async () => {
    const { header } = await sign();
    const before = await snapshot();
    await payWithLostReply(header);
    const charged = await snapshot();
    expect(before.payer - charged.payer).toBe(PRICE); // it landed: the payer has paid and has nothing yet
    const tx = await usedBy(rig.chain.payer.address, nonceOf(header));

    const res = await payAndCall(rig.server, path, body, header);
    const paid = await expectJson(res, 200);
    expect(paid.answer).toContain("390 billion");
    expect(paid.payment).toEqual({ tx_hash: tx, payer: rig.chain.payer.address, amount: String(PRICE), settled: true, network: "base" });
    expect(decodePaymentResponse(res.headers.get("x-payment-response")!)).toEqual({ success: true, transaction: tx, network: "base", payer: rig.chain.payer.address });
    const after = await snapshot();
    expect({ payer: after.payer, payTo: after.payTo }).toEqual({ payer: charged.payer, payTo: charged.payTo }); // no second transfer
    expect(after.runs).toBe(before.runs + 2); // the withheld run, and the delivered one
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "settled", tx_hash: tx });
    // Delivered once: the header is spent now.
    expect((await expectJson(await payAndCall(rig.server, path, body, header), 402)).error).toBe("payment_replayed");
  });

  test("concurrent retries of one lost payment: exactly one answer, the others told to retry or refused; one transfer", async () => {
    const { header } = await sign();
    await payWithLostReply(header);
    const charged = await snapshot();
    const replies = await Promise.all([1, 2, 3].map(() => payAndCall(rig.server, path, body, header)));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const r of replies.filter((r) => r.status !== 200)) {
      const reply = (await r.json()) as any;
      expect(r.status === 503 ? reply.error.code : reply.error).toMatch(/^(payment_reconciling|payment_replayed)$/);
    }
    const after = await snapshot();
    expect(after.payer).toBe(charged.payer);
    expect(after.runs).toBe(charged.runs + 1);
  });

  test("a payment whose settle never reached the chain: the retry settles it now, once", async () => {
    const { header } = await sign();
    const before = await snapshot();
    rig.proxy.break("/settle", "503"); // dropped before the facilitator: nothing lands
    await expectJson(await payAndCall(rig.server, path, body, header), 503);
    rig.proxy.break("/settle", null);
    expect((await snapshot()).payer).toBe(before.payer);
    const paid = await expectJson(await payAndCall(rig.server, path, body, header), 200);
    expect(paid.payment.settled).toBe(true);
    expect(paid.payment.tx_hash).toBe(await usedBy(rig.chain.payer.address, nonceOf(header)));
    expect(before.payer - (await snapshot()).payer).toBe(PRICE);
  });

  test("a retry for other terms (another brain's endpoint) is a replay, not a reconciliation", async () => {
    const { header } = await sign();
    await payWithLostReply(header);
    const otherBrain = await newPaidBrain(rig.server, { priceAtomic: String(PRICE), payTo });
    const reply = await expectJson(await payAndCall(rig.server, `/api/x402/${otherBrain}/ask`, body, header), 402);
    expect(reply.error).toBe("payment_replayed");
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "unknown" });
  });
});

describe("the same for a v2 payer", () => {
  test("@x402/core's payload in PAYMENT-SIGNATURE, reply lost: the retry answers with PAYMENT-RESPONSE and the on-chain tx", async () => {
    const url = `${rig.server.url}${path}`;
    const required = decodePaymentRequiredHeader((await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).headers.get("payment-required")!);
    const client = new x402Client()
      .register("eip155:8453", new ExactEvmScheme(privateKeyToAccount(rig.chain.payer.privateKey)))
      .setSpendControls({ allowedAssets: [{ network: "eip155:8453", asset: rig.chain.token }] });
    const payload = await client.createPaymentPayload(required);
    const signature = Buffer.from(JSON.stringify(payload)).toString("base64");
    const call = () => rig.server.api(path, { method: "POST", json: body, key: null, headers: { "PAYMENT-SIGNATURE": signature } });
    const before = await snapshot();
    rig.proxy.break("/settle", "lost-reply");
    expect((await call()).status).toBe(503);
    rig.proxy.break("/settle", null);
    const nonce = (payload.payload as any).authorization.nonce as string;
    const tx = await usedBy(rig.chain.payer.address, nonce);
    const res = await call();
    const paid = await expectJson(res, 200);
    expect(paid.payment).toMatchObject({ tx_hash: tx, settled: true });
    expect(decodePaymentResponseHeader(res.headers.get("payment-response")!)).toEqual({ success: true, transaction: tx, network: "eip155:8453", payer: rig.chain.payer.address });
    expect(before.payer - (await snapshot()).payer).toBe(PRICE);
  });
});

describe("the background reconciler", () => {
  test("a second replica on the same database settles unknown rows from the chain on its timer; the payer's retry collects the answer", async () => {
    const { header } = await sign();
    await payWithLostReply(header);
    const charged = await snapshot();
    const tx = await usedBy(rig.chain.payer.address, nonceOf(header));

    // Another Brainbox on the same data dir, reconciling every 100 ms: no payer request involved.
    const replica: Running = await startServer(
      loadConfig({
        BRAINBOX_PORT: "0",
        BRAINBOX_DATA_DIR: rig.server.dataDir,
        BRAINBOX_LOG_LEVEL: "error",
        BRAINBOX_JOBS: "false",
        BRAINBOX_X402_FACILITATOR_URL: rig.proxy.url,
        BRAINBOX_X402_RPC_URL: rig.chain.rpcUrl,
        BRAINBOX_X402_ASSET: rig.chain.token,
        BRAINBOX_X402_PAY_TO: rig.appPayTo,
        BRAINBOX_X402_RECONCILE_INTERVAL_MS: "100",
      }),
      createLogger("error"),
    );
    try {
      const until = Date.now() + 10_000;
      while ((await ledgerRow(rig.server, nonceOf(header)))?.status !== "settled" && Date.now() < until) await Bun.sleep(50);
    } finally {
      await replica.stop();
    }
    const row = await rig.server.ctx.database.client.execute({ sql: "SELECT status, tx_hash, delivered_at FROM payments WHERE nonce = ?", args: [nonceOf(header).toLowerCase()] });
    expect(row.rows[0]).toMatchObject({ status: "settled", tx_hash: tx, delivered_at: null }); // paid, not yet delivered

    const paid = await expectJson(await payAndCall(rig.server, path, body, header), 200);
    expect(paid.payment).toMatchObject({ tx_hash: tx, settled: true, amount: String(PRICE) });
    expect(paid.answer).toContain("390 billion");
    expect((await snapshot()).payer).toBe(charged.payer);
    expect((await expectJson(await payAndCall(rig.server, path, body, header), 402)).error).toBe("payment_replayed");
  });

  // Last: it moves the chain's clock past every authorization signed so far.
  test("an unknown payment that never landed and has expired is voided (nothing moved, nothing ever will)", async () => {
    const { header } = await sign();
    const before = await snapshot();
    rig.proxy.break("/settle", "503");
    await expectJson(await payAndCall(rig.server, path, body, header), 503);
    rig.proxy.break("/settle", null);
    const x402 = x402Service(rig.server.ctx);
    // Still valid: left alone (its settlement could still land).
    expect(await x402.paidCall.sweep()).toMatchObject({ checked: 1, pending: 1, settled: 0, voided: 0 });
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "unknown" });
    await rig.chain.advanceTime(Number(requirements.maxTimeoutSeconds) + 60);
    expect(await x402.paidCall.sweep()).toMatchObject({ checked: 1, voided: 1 });
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "voided", reason: "expired_unsettled" });
    expect((await snapshot()).payer).toBe(before.payer);
    expect(await x402.paidCall.sweep()).toMatchObject({ checked: 0 });
  });
});
