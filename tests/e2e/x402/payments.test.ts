// Owners see their money: GET /api/v1/payments and /api/v1/brains/{id}/payments over a real paid rail on
// anvil. One owner's brain gets a settled, a thin (zero), a settle-refused and an unknown payment; another
// account's brain gets a settled one; the admin also sees the app actions. Filters, totals, the cursor,
// and bad input.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../../support/accounts";
import { newAccount } from "../../support/chain/rig";
import { signPayment } from "../../support/chain/sign";
import { expectJson } from "../../support/server";
import { addText, newBrain, waitForSource } from "../../support/sources";
import { ANSWERABLE, nonceOf, payAndCall, RAINFOREST, startPaidRig, termsOf, UNANSWERABLE, type PaidRig } from "../../x402/support/paid-rig";

const PRICE = 15_000n;
let rig: PaidRig;
let ownerBrain: string;
let otherKey: string;
let otherBrain: string;
const nonces = {} as Record<"settled" | "zero" | "refused" | "unknown" | "other" | "action", string>;

async function paidBrainOf(key: string | undefined, price: bigint): Promise<string> {
  const s = { api: (path: string, init: Parameters<typeof rig.server.api>[1] = {}) => rig.server.api(path, { ...init, key: init.key ?? key }) };
  const brainId = await newBrain(s);
  const { source } = await addText(s, brainId, "Amazon rainforest", RAINFOREST);
  expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  await expectJson(await s.api(`/api/v1/brains/${brainId}/paid`, { method: "PUT", json: { priceAtomic: String(price), payTo: newAccount().address, visibility: "public" }, key }), 200);
  return brainId;
}

async function pay(brainId: string, question: string): Promise<{ status: number; nonce: string }> {
  const path = `/api/x402/${brainId}/ask`;
  const requirements = await termsOf(rig.server, path, { question });
  const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements });
  const res = await payAndCall(rig.server, path, { question }, header);
  await res.arrayBuffer();
  return { status: res.status, nonce: nonceOf(header).toLowerCase() };
}

beforeAll(async () => {
  rig = await startPaidRig();
  ownerBrain = await paidBrainOf(undefined, PRICE);
  otherKey = await newAccountKey(rig.server.ctx.db, "Other owner");
  otherBrain = await paidBrainOf(otherKey, 7_000n);

  nonces.settled = (await pay(ownerBrain, ANSWERABLE)).nonce;
  nonces.zero = (await pay(ownerBrain, UNANSWERABLE)).nonce;
  rig.facilitator.setSettleFailure("insufficient_funds");
  nonces.refused = (await pay(ownerBrain, ANSWERABLE)).nonce;
  rig.facilitator.setSettleFailure(null);
  rig.proxy.break("/settle", "503");
  nonces.unknown = (await pay(ownerBrain, ANSWERABLE)).nonce;
  rig.proxy.break("/settle", null);
  nonces.other = (await pay(otherBrain, ANSWERABLE)).nonce;
  // An app action, paid to the server's BRAINBOX_X402_PAY_TO: the admin's to see.
  const path = "/api/x402/social/image";
  const body = { title: "Owner view", width: 200, height: 100 };
  const { header } = await signPayment({ privateKey: rig.chain.payer.privateKey, requirements: await termsOf(rig.server, path, body) });
  expect((await payAndCall(rig.server, path, body, header)).status).toBe(200);
  nonces.action = nonceOf(header).toLowerCase();
});
afterAll(async () => {
  await rig?.stop();
});

const list = async (path: string, key?: string) => expectJson(await rig.server.api(path, { key }), 200);

describe("GET /api/v1/payments", () => {
  test("the owner (admin) sees its brain's payments in four statuses and the app action, newest first, not others'", async () => {
    const { payments, totals, nextCursor } = await list("/api/v1/payments");
    expect(nextCursor).toBeNull();
    const byId = new Map<string, any>(payments.map((p: any) => [p.id, p]));
    expect(byId.get(nonces.settled)).toMatchObject({
      brainId: ownerBrain,
      action: null,
      status: "settled",
      amount: String(PRICE),
      payer: rig.chain.payer.address.toLowerCase(),
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      network: "base",
    });
    expect(byId.get(nonces.zero)).toMatchObject({ status: "zero", txHash: null });
    expect(byId.get(nonces.refused)).toMatchObject({ status: "refused", txHash: null });
    expect(byId.get(nonces.unknown)).toMatchObject({ status: "unknown", txHash: null });
    expect(byId.get(nonces.action)).toMatchObject({ brainId: null, action: "social/image", status: "settled" });
    expect(byId.has(nonces.other)).toBe(false);
    const times = payments.map((p: any) => Date.parse(p.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const today = new Date().toISOString().slice(0, 10);
    const actionAmount = BigInt(byId.get(nonces.action).amount);
    expect(totals).toEqual([
      { period: today, settledCount: 2, settledAmount: String(PRICE + actionAmount), zeroCount: 1, refusedCount: 1, unknownCount: 1 },
    ]);
    expect((await list("/api/v1/payments?period=month")).totals).toEqual([{ ...totals[0], period: today.slice(0, 7) }]);
  });

  test("filters by status; limit and cursor page through without repeats", async () => {
    for (const status of ["settled", "zero", "refused", "unknown"]) {
      const { payments } = await list(`/api/v1/payments?status=${status}`);
      expect(payments.length).toBeGreaterThan(0);
      expect(payments.every((p: any) => p.status === status)).toBe(true);
    }
    const all = (await list("/api/v1/payments")).payments.map((p: any) => p.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await list(`/api/v1/payments?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.payments.length).toBeLessThanOrEqual(2);
      seen.push(...page.payments.map((p: any) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  test("another account sees only its own brain; a non-admin does not see the app actions", async () => {
    const { payments, totals } = await list("/api/v1/payments", otherKey);
    expect(payments.map((p: any) => p.id)).toEqual([nonces.other]);
    expect(totals[0]).toMatchObject({ settledCount: 1, settledAmount: "7000", zeroCount: 0, refusedCount: 0, unknownCount: 0 });
    const fresh = await newAccountKey(rig.server.ctx.db, "Nobody");
    expect(await list("/api/v1/payments", fresh)).toEqual({ payments: [], totals: [], nextCursor: null });
  });

  test("bad input: 422 with the field; no key: 401", async () => {
    for (const [query, field] of [
      ["status=paid", "status"],
      ["period=year", "period"],
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      ["limit=abc", "limit"],
      ["cursor=nonsense", "cursor"],
    ] as const) {
      const reply = await expectJson(await rig.server.api(`/api/v1/payments?${query}`), 422);
      expect(reply.error.code).toBe("invalid_request");
      expect(JSON.stringify(reply.error)).toContain(field);
    }
    expect((await rig.server.api("/api/v1/payments", { key: null })).status).toBe(401);
  });
});

describe("GET /api/v1/brains/{id}/payments", () => {
  test("one brain's payments and totals; someone else's brain is 404 (private) or 403 (public)", async () => {
    const { payments, totals } = await list(`/api/v1/brains/${ownerBrain}/payments`);
    expect(new Set(payments.map((p: any) => p.id))).toEqual(new Set([nonces.settled, nonces.zero, nonces.refused, nonces.unknown]));
    expect(totals[0]).toMatchObject({ settledCount: 1, settledAmount: String(PRICE), zeroCount: 1, refusedCount: 1, unknownCount: 1 });
    // Someone else's paid brain is not readable by other accounts at all (404), nor is a private one.
    expect((await rig.server.api(`/api/v1/brains/${otherBrain}/payments`)).status).toBe(404);
    const privateOne = await newBrain(rig.server, undefined, otherKey);
    expect((await rig.server.api(`/api/v1/brains/${privateOne}/payments`)).status).toBe(404);
    // A public free brain of someone else is readable, but its payments are the owner's business: 403.
    await expectJson(await rig.server.api(`/api/v1/brains/${privateOne}`, { method: "PATCH", json: { visibility: "public" }, key: otherKey }), 200);
    expect((await rig.server.api(`/api/v1/brains/${privateOne}/payments`)).status).toBe(403);
    expect((await rig.server.api(`/api/v1/brains/${ownerBrain}/payments`, { key: otherKey })).status).toBe(404); // paid: not visible to others
  });
});
