// Paid brains over MCP on a real local chain (anvil + EIP-3009 token + facilitator stand-in): a
// payment-required tool result until the MCP request carries X-Payment, then verify, run, settle last
// through the x402 rail's one flow; balances move by exactly the quote, and by nothing for a thin result.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { decodePaymentResponse, type PaymentRequirements } from "../../../src/pay";
import { newAccountKey } from "../../support/accounts";
import { newAccount } from "../../support/chain/rig";
import { signPayment, x402PaymentHeader } from "../../support/chain/sign";
import { expectJson } from "../../support/server";
import { ANSWERABLE, ledgerRow, newPaidBrain, nonceOf, startPaidRig, UNANSWERABLE, type PaidRig } from "../../x402/support/paid-rig";
import { connectMcp, rawMcp, textOf, type McpSession } from "../../mcp/support";

const PRICE = 25_000n;
let rig: PaidRig;
let brainId: string;
let payTo: string;
let strangerKey: string;
let stranger: McpSession;

beforeAll(async () => {
  rig = await startPaidRig({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
  payTo = newAccount().address;
  brainId = await newPaidBrain(rig.server, { priceAtomic: String(PRICE), payTo });
  strangerKey = await newAccountKey(rig.server.ctx.db, "Stranger", "pro");
  stranger = await connectMcp(rig.server.url, strangerKey);
});
afterAll(async () => {
  await stranger?.close();
  await rig?.stop();
});

async function balances() {
  return { payer: await rig.chain.balanceOf(rig.chain.payer.address), payTo: await rig.chain.balanceOf(payTo) };
}
const mcpRuns = async () =>
  Number((await rig.server.ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM asks WHERE brain_id = ? AND surface = 'mcp'", args: [brainId] })).rows[0]!.n);
const quotaUsed = async (key: string) => (await expectJson(await rig.server.api("/api/v1/account", { key }), 200)).usage.quota.used;

/** Calls without payment and returns the terms of the payment-required result. */
async function termsOf(session: McpSession, tool: string, args: Record<string, unknown>): Promise<PaymentRequirements> {
  session.pay(null);
  const r = await session.call(tool, args);
  expect(r.isError).toBe(true);
  expect(r.structuredContent).toMatchObject({ x402Version: 1, error: "payment_required" });
  expect(r.structuredContent.accepts).toHaveLength(1);
  return r.structuredContent.accepts[0];
}

describe("a paid brain over /mcp (an account that does not own it)", () => {
  test("without X-Payment: a payment-required result with the x402 terms, readable and structured; nothing runs", async () => {
    const runs = await mcpRuns();
    const used = await quotaUsed(strangerKey);
    stranger.pay(null);
    const r = await stranger.call("ask_brain", { brainId, question: ANSWERABLE });
    expect(r.isError).toBe(true);
    expect(r.structuredContent.accepts).toEqual([
      expect.objectContaining({
        scheme: "exact",
        network: "base",
        maxAmountRequired: String(PRICE),
        payTo,
        resource: `${rig.server.url}/mcp?tool=ask_brain&brainId=${brainId}`,
        extra: { name: "USD Coin", version: "2" },
      }),
    ]);
    const text = textOf(r);
    expect(text).toContain("Payment required (x402)");
    expect(text).toContain(`costs ${PRICE} atomic units`);
    expect(text).toContain("X-Payment header");
    expect(await mcpRuns()).toBe(runs);
    expect(await quotaUsed(strangerKey)).toBe(used);
  });

  test("paid with a signed payment: the answer with citations, a settled receipt, exactly the quote moves, no plan question spent", async () => {
    const requirements = await termsOf(stranger, "ask_brain", { brainId, question: ANSWERABLE });
    const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements });
    const before = await balances();
    const used = await quotaUsed(strangerKey);
    stranger.pay(header);
    const r = await stranger.call("ask_brain", { brainId, question: ANSWERABLE });
    expect(r.isError).toBeFalsy();
    const body = r.structuredContent;
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("390 billion");
    expect(body.citations.length).toBeGreaterThan(0);
    expect(body.citations[0].url).toStartWith(`${rig.server.url}/api/v1/brains/${brainId}/pages/`);
    expect(body.payment).toEqual({ tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), payer: rig.chain.payer.address, amount: String(PRICE), settled: true, network: "base" });
    const receipt = decodePaymentResponse(stranger.lastHeaders()!.get("x-payment-response")!);
    expect(receipt).toEqual({ success: true, transaction: body.payment.tx_hash, network: "base", payer: rig.chain.payer.address });
    const after = await balances();
    expect(before.payer - after.payer).toBe(PRICE);
    expect(after.payTo - before.payTo).toBe(PRICE);
    expect(await quotaUsed(strangerKey)).toBe(used);
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "settled", tx_hash: body.payment.tx_hash });

    // The same header again buys nothing: payment_replayed, with the terms.
    const again = await stranger.call("ask_brain", { brainId, question: ANSWERABLE });
    expect(again.isError).toBe(true);
    expect(again.structuredContent.error).toBe("payment_replayed");
    expect(textOf(again)).toContain("refused (payment_replayed)");
    expect(await balances()).toEqual(after);
    stranger.pay(null);
  });

  test("a thin answer settles nothing: balances unchanged, amount 0, no receipt header", async () => {
    const requirements = await termsOf(stranger, "ask_brain", { brainId, question: UNANSWERABLE });
    const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements });
    const before = await balances();
    stranger.pay(header);
    const r = await stranger.call("ask_brain", { brainId, question: UNANSWERABLE });
    stranger.pay(null);
    expect(r.structuredContent).toMatchObject({ thin: true, citations: [], payment: { tx_hash: null, amount: "0", settled: false } });
    expect(stranger.lastHeaders()!.get("x-payment-response")).toBeNull();
    expect(await balances()).toEqual(before);
    expect(await ledgerRow(rig.server, nonceOf(header))).toMatchObject({ status: "voided", reason: "thin" });
  });

  test("get_context is gated the same way and settles the brain's price", async () => {
    const requirements = await termsOf(stranger, "get_context", { brainId, query: "Amazon trees and species" });
    expect(requirements.resource).toBe(`${rig.server.url}/mcp?tool=get_context&brainId=${brainId}`);
    const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements });
    const before = await balances();
    stranger.pay(header);
    const r = await stranger.call("get_context", { brainId, query: "Amazon trees and species" });
    stranger.pay(null);
    expect(r.structuredContent.thin).toBe(false);
    expect(r.structuredContent.context).toContain("390 billion");
    expect(r.structuredContent.payment.settled).toBe(true);
    expect(before.payer - (await balances()).payer).toBe(PRICE);
  });

  test("a bad payment is refused before anything runs, with the terms again", async () => {
    const requirements = await termsOf(stranger, "ask_brain", { brainId, question: ANSWERABLE });
    const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements, authorization: { value: "1" } });
    const runs = await mcpRuns();
    stranger.pay(header);
    const r = await stranger.call("ask_brain", { brainId, question: ANSWERABLE });
    stranger.pay(null);
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ error: "payment_amount", accepts: [expect.objectContaining({ maxAmountRequired: String(PRICE) })] });
    expect(await mcpRuns()).toBe(runs);
  });

  test("the tools that are not paid stay 404 for a paid brain of someone else", async () => {
    for (const [tool, args] of [
      ["read_page", { brainId, slug: "amazon-rainforest" }],
      ["list_sources", { brainId }],
    ] as const) {
      expect((await stranger.call(tool, args)).structuredContent.error.code).toBe("not_found");
    }
  });
});

describe("the owner and the keyless endpoint", () => {
  test("the owner asks their own paid brain on the account: metered, never charged", async () => {
    const owner = await connectMcp(rig.server.url, rig.server.key);
    const before = await balances();
    const used = await quotaUsed(rig.server.key);
    const r = await owner.call("ask_brain", { brainId, question: ANSWERABLE });
    expect(r.structuredContent.thin).toBe(false);
    expect(r.structuredContent.payment).toBeUndefined();
    expect(r.structuredContent.quota.used).toBe(used + 1);
    expect(await balances()).toEqual(before);
    await owner.close();
  });

  test("/mcp/x402 without any key: list, terms, then paid with the x402 reference client's header", async () => {
    const anon = await connectMcp(rig.server.url, null, "/mcp/x402");
    const listed = await anon.call("list_paid_brains", {});
    expect(listed.structuredContent.brains).toContainEqual(expect.objectContaining({ id: brainId, priceAtomic: String(PRICE), network: "base", payTo }));
    const requirements = await termsOf(anon, "ask_brain", { brainId, question: ANSWERABLE });
    expect(requirements.resource).toBe(`${rig.server.url}/mcp/x402?tool=ask_brain&brainId=${brainId}`);
    const header = await x402PaymentHeader({ privateKey: rig.chain.payer.privateKey, rpcUrl: rig.chain.rpcUrl, requirements });
    const before = await balances();
    anon.pay(header);
    const r = await anon.call("ask_brain", { brainId, question: ANSWERABLE });
    expect(r.structuredContent.payment).toMatchObject({ settled: true, amount: String(PRICE), payer: rig.chain.payer.address });
    const after = await balances();
    expect(before.payer - after.payer).toBe(PRICE);
    expect(after.payTo - before.payTo).toBe(PRICE);
    await anon.close();
  });

  test("/mcp itself never serves anyone without a key, paid brain or not", async () => {
    const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    expect((await rawMcp(rig.server.url, init)).status).toBe(401);
  });
});
