// Owner settings over HTTP (make a brain public and paid, stop charging) and the public bazaar.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getAddress } from "viem";
import { x402Service } from "../../../src/modules/x402";
import { newAccountKey } from "../../support/accounts";
import { newAccount } from "../../support/chain/rig";
import { expectJson } from "../../support/server";
import { newBrain } from "../../support/sources";
import { startPaidRig, type PaidRig } from "../../x402/support/paid-rig";

const CEILING = 500_000;
let rig: PaidRig;
const payTo = newAccount().address;

beforeAll(async () => {
  rig = await startPaidRig({ BRAINBOX_X402_MAX_PER_CALL: String(CEILING) });
});
afterAll(async () => {
  await rig?.stop();
});

const put = (brainId: string, json: unknown, key?: string) => rig.server.api(`/api/v1/brains/${brainId}/paid`, { method: "PUT", json, key });
const bazaar = async (query = "") =>
  (await expectJson(await rig.server.api(`/api/x402/bazaar${query}`, { key: null }), 200)) as { x402Version: 1; items: any[]; pagination: { limit: number; offset: number; total: number } };

describe("PUT/DELETE /api/v1/brains/{id}/paid", () => {
  test("makes a private brain public and paid only when asked to; the brain read shows the terms", async () => {
    const id = await newBrain(rig.server);
    // A private brain is never made public silently: without visibility, a clear refusal and no change.
    const refused = await expectJson(await put(id, { priceAtomic: "15000", payTo }), 422);
    expect(refused.error).toMatchObject({ code: "invalid_request", field: "visibility", reason: "visibility_required" });
    expect(refused.error.message).toContain('visibility: "public"');
    const untouched = (await expectJson(await rig.server.api(`/api/v1/brains/${id}`), 200)).brain;
    expect(untouched).toMatchObject({ visibility: "private", paid: null });
    expect((await expectJson(await put(id, { priceAtomic: "15000", payTo, visibility: "shared" }), 422)).error.field).toBe("visibility");

    const made = await expectJson(await put(id, { priceAtomic: "15000", payTo: payTo.toLowerCase(), visibility: "public" }), 200);
    expect(made).toMatchObject({ visibility: "public", forSale: true });
    const brain = made.brain;
    expect(brain).toMatchObject({ id, visibility: "public", paid: { priceAtomic: "15000", payTo: getAddress(payTo) } });
    const read = await expectJson(await rig.server.api(`/api/v1/brains/${id}`), 200);
    expect(read.brain.paid).toEqual({ priceAtomic: "15000", payTo: getAddress(payTo) });
    // A whole number is accepted too, and a second PUT changes the terms; a public brain stays public without saying so.
    const again = await expectJson(await put(id, { priceAtomic: 20000, payTo }), 200);
    expect(again).toMatchObject({ visibility: "public", forSale: true, brain: { paid: { priceAtomic: "20000" } } });
  });

  test('visibility "private" keeps the brain private: terms saved, not for sale (not in the bazaar, 404 on the rail)', async () => {
    const id = await newBrain(rig.server);
    const kept = await expectJson(await put(id, { priceAtomic: "1000", payTo, visibility: "private" }), 200);
    expect(kept).toMatchObject({ visibility: "private", forSale: false, brain: { visibility: "private", paid: { priceAtomic: "1000" } } });
    expect((await bazaar()).items.some((i) => i.metadata.brain?.id === id)).toBe(false);
    expect((await rig.server.api(`/api/x402/${id}/ask`, { method: "POST", json: { question: "q?" }, key: null })).status).toBe(404);
  });

  test("a new brain reads paid: null", async () => {
    const id = await newBrain(rig.server);
    expect((await expectJson(await rig.server.api(`/api/v1/brains/${id}`), 200)).brain.paid).toBeNull();
  });

  test("validates the address and the price against BRAINBOX_X402_MAX_PER_CALL", async () => {
    const id = await newBrain(rig.server);
    const fieldOf = async (json: Record<string, unknown>) => (await expectJson(await put(id, { visibility: "public", ...json }), 422)).error.field;
    expect(await fieldOf({ priceAtomic: "1000", payTo: "0x1234" })).toBe("payTo");
    expect(await fieldOf({ priceAtomic: "1000", payTo: "not an address" })).toBe("payTo");
    // Mixed case with a broken checksum is a typo, not an address to send money to.
    const broken = payTo.slice(0, 2) + [...payTo.slice(2)].map((c, i) => (i === 0 ? (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) : c)).join("");
    if (/[a-f]/i.test(payTo[2]!)) expect(await fieldOf({ priceAtomic: "1000", payTo: broken })).toBe("payTo");
    expect(await fieldOf({ priceAtomic: "0", payTo })).toBe("priceAtomic");
    expect(await fieldOf({ priceAtomic: "-5", payTo })).toBe("priceAtomic");
    expect(await fieldOf({ priceAtomic: "1.5", payTo })).toBe("priceAtomic");
    expect(await fieldOf({ priceAtomic: String(CEILING + 1), payTo })).toBe("priceAtomic");
    expect((await expectJson(await put(id, { priceAtomic: String(CEILING), payTo, visibility: "public" }), 200)).brain.paid.priceAtomic).toBe(String(CEILING));
  });

  test("only the owner sets terms: 404 for a private brain of another account, 403 for its public free brain", async () => {
    const other = await newAccountKey(rig.server.ctx.db, "Other owner");
    const theirs = await newBrain(rig.server, undefined, other);
    expect((await put(theirs, { priceAtomic: "1000", payTo })).status).toBe(404);
    await expectJson(await rig.server.api(`/api/v1/brains/${theirs}`, { method: "PATCH", json: { visibility: "public" }, key: other }), 200);
    expect((await put(theirs, { priceAtomic: "1000", payTo })).status).toBe(403);
    expect((await rig.server.api(`/api/v1/brains/${theirs}/paid`, { method: "DELETE" })).status).toBe(403);
    expect((await rig.server.api(`/api/v1/brains/${theirs}/paid`, { method: "PUT", json: { priceAtomic: "1000", payTo }, key: null })).status).toBe(401);
  });
});

describe("GET /api/x402/bazaar", () => {
  test("lists a brain once it is paid, with its URL and accepts terms, and not after it stops charging", async () => {
    const id = await newBrain(rig.server, "Bazaar brain");
    const listed = () => bazaar().then((b) => b.items.find((i) => i.metadata.brain?.id === id));
    expect(await listed()).toBeUndefined();

    await expectJson(await put(id, { priceAtomic: "12345", payTo, visibility: "public" }), 200);
    const item = await listed();
    expect(await x402Service(rig.server.ctx).findPaidBrain(id)).toMatchObject({ id, priceAtomic: 12345n, payTo: getAddress(payTo) });
    // x402's DiscoveredResource: resource, type, x402Version, accepts, lastUpdated, metadata.
    expect(item).toMatchObject({
      resource: `${rig.server.url}/api/x402/${id}/ask`,
      type: "http",
      x402Version: 1,
      metadata: { kind: "brain", method: "POST", x402Versions: [1, 2], brain: { id, name: "Bazaar brain" } },
    });
    expect(Date.parse(item.lastUpdated)).toBeGreaterThan(Date.now() - 60_000);
    expect(item.metadata.acceptsV2).toEqual([
      { scheme: "exact", network: "eip155:8453", amount: "12345", asset: getAddress(rig.chain.token), payTo: getAddress(payTo), maxTimeoutSeconds: 120, extra: { name: "USD Coin", version: "2" } },
    ]);
    expect(item.accepts).toEqual([
      expect.objectContaining({
        scheme: "exact",
        network: "base",
        maxAmountRequired: "12345",
        payTo: getAddress(payTo),
        asset: getAddress(rig.chain.token),
        resource: `${rig.server.url}/api/x402/${id}/ask`,
        extra: { name: "USD Coin", version: "2" },
      }),
    ]);
    // The bazaar's terms are exactly what the endpoint's 402 asks for.
    const quoted = await expectJson(await rig.server.api(`/api/x402/${id}/ask`, { method: "POST", json: { question: "q?" }, key: null }), 402);
    expect(quoted.accepts).toEqual(item.accepts);

    const { brain } = await expectJson(await rig.server.api(`/api/v1/brains/${id}/paid`, { method: "DELETE" }), 200);
    expect(brain).toMatchObject({ visibility: "public", paid: null }); // stays public, now free
    expect(await listed()).toBeUndefined();
    expect(await x402Service(rig.server.ctx).findPaidBrain(id)).toBeNull(); // what MCP asks
    expect((await rig.server.api(`/api/x402/${id}/ask`, { method: "POST", json: { question: "q?" }, key: null })).status).toBe(404);
  });

  test("a paid brain made private leaves the bazaar", async () => {
    const id = await newBrain(rig.server);
    await expectJson(await put(id, { priceAtomic: "1000", payTo, visibility: "public" }), 200);
    expect((await bazaar()).items.some((i) => i.metadata.brain?.id === id)).toBe(true);
    await expectJson(await rig.server.api(`/api/v1/brains/${id}`, { method: "PATCH", json: { visibility: "private" } }), 200);
    expect((await bazaar()).items.some((i) => i.metadata.brain?.id === id)).toBe(false);
  });

  test("lists the three app actions with their pricing, paid to BRAINBOX_X402_PAY_TO", async () => {
    const actions = (await bazaar()).items.filter((i) => i.metadata.kind === "action");
    expect(actions.map((a) => a.metadata.action)).toEqual(["geo/scan", "social/image", "clips/render"]);
    for (const a of actions) {
      expect(a.resource).toBe(`${rig.server.url}/api/x402/${a.metadata.action}`);
      expect(a.accepts[0]).toMatchObject({ payTo: getAddress(rig.appPayTo), network: "base", resource: a.resource });
      expect(a.metadata.pricing).toMatchObject({ ceilingAtomic: String(CEILING) });
      expect(BigInt(a.accepts[0].maxAmountRequired)).toBeLessThanOrEqual(BigInt(CEILING));
    }
  });

  test("the discovery list shape: pagination {limit, offset, total}, filters by type, limit and offset; bad filters are 422", async () => {
    const id = await newBrain(rig.server, "Paged brain");
    await expectJson(await put(id, { priceAtomic: "1000", payTo, visibility: "public" }), 200);
    const all = await bazaar();
    const total = all.items.length;
    expect(all.pagination).toEqual({ limit: 100, offset: 0, total });
    expect(total).toBeGreaterThanOrEqual(4);
    const page = await bazaar("?limit=2&offset=1");
    expect(page.pagination).toEqual({ limit: 2, offset: 1, total });
    expect(page.items.map((i) => i.resource)).toEqual(all.items.slice(1, 3).map((i) => i.resource));
    expect((await bazaar(`?offset=${total}`)).items).toEqual([]);
    expect((await bazaar("?type=http")).items).toHaveLength(total);
    expect(await bazaar("?type=mcp")).toMatchObject({ items: [], pagination: { total: 0 } });
    for (const [bad, field] of [["?limit=0", "limit"], ["?limit=1001", "limit"], ["?limit=abc", "limit"], ["?offset=-1", "offset"], ["?offset=1.5", "offset"]]) {
      const reply = await expectJson(await rig.server.api(`/api/x402/bazaar${bad}`, { key: null }), 422);
      expect(reply.error).toMatchObject({ code: "invalid_request", field });
    }
  });
});
