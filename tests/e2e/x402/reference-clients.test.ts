// The reference clients pay on a local anvil chain, set up as their quick starts say: a v1-only client
// (x402-fetch, which reads the 402 body and sends X-PAYMENT) and a v2-only client (@x402/fetch with
// ExactEvmScheme on eip155:8453, which reads PAYMENT-REQUIRED and sends PAYMENT-SIGNATURE) both pay the
// same endpoints: a paid brain's ask and an app action. Over MCP, the x402 convention (the payload object
// in params._meta["x402/payment"], the settlement in result._meta["x402/payment-response"]) works with
// payloads built by the v2 and v1 reference clients, and the v2 PAYMENT-SIGNATURE header works too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm";
import { wrapFetchWithPaymentFromConfig } from "@x402/fetch";
import { createWalletClient, getAddress, http, publicActions, type Chain, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { decodeXPaymentResponse, wrapFetchWithPayment } from "x402-fetch";
import { newAccount, type Account } from "../../support/chain/rig";
import { expectJson } from "../../support/server";
import { ANSWERABLE, ledgerRow, newPaidBrain, startPaidRig, type PaidRig } from "../../x402/support/paid-rig";

const PRICE = 20_000n;
let rig: PaidRig;
let brainId: string;
let payTo: string;
let v1Payer: Account;
let v2Payer: Account;

beforeAll(async () => {
  rig = await startPaidRig();
  payTo = newAccount().address;
  brainId = await newPaidBrain(rig.server, { priceAtomic: String(PRICE), payTo });
  [v1Payer, v2Payer] = [await rig.chain.newPayer(10_000_000n), await rig.chain.newPayer(10_000_000n)];
});
afterAll(async () => {
  await rig?.stop();
});

/** x402-fetch as its README sets it up: a viem wallet client on base (here at the anvil RPC). */
function v1Fetch(payer: Account) {
  const chain: Chain = base;
  const wallet = createWalletClient({ chain, transport: http(rig.chain.rpcUrl), account: privateKeyToAccount(payer.privateKey) }).extend(publicActions);
  return wrapFetchWithPayment(fetch, wallet as any);
}

/**
 * @x402/fetch as its quick start sets it up: v2 only, exact EVM on eip155:8453. The one addition: the buyer
 * allows the test token (on base the asset is USDC, one of the client's default assets, allowed as is).
 */
function v2Fetch(payer: Account) {
  return wrapFetchWithPaymentFromConfig(fetch, {
    schemes: [{ network: "eip155:8453", client: new ExactEvmScheme(privateKeyToAccount(payer.privateKey)) }],
    spendControls: allowTestToken(),
  });
}

const allowTestToken = () => ({ allowedAssets: [{ network: "eip155:8453" as const, asset: rig.chain.token, maxAmountPerPayment: "1000000" }] });

/** A v2 reference client (x402Client + ExactEvmScheme) for building payloads by hand. */
const v2Client = (payer: Account) =>
  new x402Client().register("eip155:8453", new ExactEvmScheme(privateKeyToAccount(payer.privateKey))).setSpendControls(allowTestToken());

const post = (json: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(json) });
const balance = (a: string) => rig.chain.balanceOf(a);

describe("one endpoint, both versions", () => {
  test("the 402 carries the seed's v1 body and a v2 PAYMENT-REQUIRED header with the same terms", async () => {
    const res = await fetch(`${rig.server.url}/api/x402/${brainId}/ask`, post({ question: ANSWERABLE }));
    const body = await expectJson(res, 402);
    expect(body).toMatchObject({ x402Version: 1, error: "payment_required", accepts: [{ scheme: "exact", network: "base", maxAmountRequired: String(PRICE) }] });
    const v2 = decodePaymentRequiredHeader(res.headers.get("payment-required")!);
    expect(v2).toEqual({
      x402Version: 2,
      error: "payment_required",
      resource: { url: `${rig.server.url}/api/x402/${brainId}/ask`, description: body.accepts[0].description, mimeType: "application/json" },
      accepts: [
        { scheme: "exact", network: "eip155:8453", amount: String(PRICE), asset: getAddress(rig.chain.token), payTo: getAddress(payTo), maxTimeoutSeconds: 120, extra: { name: "USD Coin", version: "2" } },
      ],
    });
  });

  test("x402-fetch (v1 only) pays the paid ask: X-PAYMENT-RESPONSE, exactly the quote moves", async () => {
    const before = { payer: await balance(v1Payer.address), payTo: await balance(payTo) };
    const res = await v1Fetch(v1Payer)(`${rig.server.url}/api/x402/${brainId}/ask`, post({ question: ANSWERABLE }));
    const body = await expectJson(res, 200);
    expect(body.answer).toContain("390 billion");
    expect(body.payment).toMatchObject({ payer: v1Payer.address, amount: String(PRICE), settled: true, network: "base" });
    expect(decodeXPaymentResponse(res.headers.get("x-payment-response")!)).toMatchObject({ success: true, transaction: body.payment.tx_hash, network: "base" });
    expect(res.headers.get("payment-response")).toBeNull();
    expect(before.payer - (await balance(v1Payer.address))).toBe(PRICE);
    expect((await balance(payTo)) - before.payTo).toBe(PRICE);
  });

  test("@x402/fetch (v2 only) pays the same ask: PAYMENT-RESPONSE on eip155:8453, exactly the quote moves", async () => {
    const before = { payer: await balance(v2Payer.address), payTo: await balance(payTo) };
    const res = await v2Fetch(v2Payer)(`${rig.server.url}/api/x402/${brainId}/ask`, post({ question: ANSWERABLE }));
    const body = await expectJson(res, 200);
    expect(body.answer).toContain("390 billion");
    expect(body.payment).toMatchObject({ payer: v2Payer.address, amount: String(PRICE), settled: true });
    const settlement = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(settlement).toMatchObject({ success: true, transaction: body.payment.tx_hash, network: "eip155:8453", payer: v2Payer.address });
    expect(res.headers.get("x-payment-response")).toBeNull();
    expect(before.payer - (await balance(v2Payer.address))).toBe(PRICE);
    expect((await balance(payTo)) - before.payTo).toBe(PRICE);
    const row = await rig.server.ctx.database.client.execute({ sql: "SELECT x402_version, brain_id FROM payments WHERE tx_hash = ?", args: [body.payment.tx_hash] });
    expect(row.rows[0]).toMatchObject({ x402_version: 2, brain_id: brainId });
  });

  test("both clients pay an app action (social/image, raw PNG), paid to BRAINBOX_X402_PAY_TO", async () => {
    for (const [payer, pay, receiptHeader, network] of [
      [v1Payer, v1Fetch(v1Payer), "x-payment-response", "base"],
      [v2Payer, v2Fetch(v2Payer), "payment-response", "eip155:8453"],
    ] as const) {
      const before = await balance(payer.address);
      const appBefore = await balance(rig.appPayTo);
      const res = await pay(`${rig.server.url}/api/x402/social/image`, { ...post({ title: "Both versions", width: 400, height: 200 }), headers: { "content-type": "application/json", accept: "image/png" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(new Uint8Array(await res.arrayBuffer()).slice(1, 4)).toEqual(new TextEncoder().encode("PNG"));
      const spent = before - (await balance(payer.address));
      expect(spent).toBeGreaterThan(0n);
      expect((await balance(rig.appPayTo)) - appBefore).toBe(spent);
      const receipt = JSON.parse(Buffer.from(res.headers.get(receiptHeader)!, "base64").toString());
      expect(receipt).toMatchObject({ success: true, network, payer: payer.address });
    }
  });

  test("bad v2 payments: other network, other amount, both headers at once, garbage; nothing moves", async () => {
    const url = `${rig.server.url}/api/x402/${brainId}/ask`;
    const required = decodePaymentRequiredHeader((await fetch(url, post({ question: ANSWERABLE }))).headers.get("payment-required")!);
    const signed = await v2Client(v2Payer).createPaymentPayload(required);
    const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64");
    const before = await balance(v2Payer.address);
    const attempt = async (headers: Record<string, string>) =>
      (await expectJson(await fetch(url, { ...post({ question: ANSWERABLE }), headers: { "content-type": "application/json", ...headers } }), 402)).error;
    expect(await attempt({ "payment-signature": encode({ ...signed, accepted: { ...signed.accepted, network: "eip155:84532" } }) })).toBe("payment_network");
    expect(await attempt({ "payment-signature": encode({ ...signed, accepted: { ...signed.accepted, amount: "1" } }) })).toBe("payment_amount");
    expect(await attempt({ "payment-signature": encode({ ...signed, x402Version: 3 }) })).toBe("payment_version");
    expect(await attempt({ "payment-signature": "%%%" })).toBe("payment_malformed");
    expect(await attempt({ "payment-signature": encode(signed), "x-payment": encode(signed) })).toBe("payment_malformed");
    // A v2 envelope whose authorization was signed for another chain: the signature check catches it.
    const sepolia = await new x402Client()
      .register("eip155:*", new ExactEvmScheme(privateKeyToAccount(v2Payer.privateKey)))
      .setSpendControls(false)
      .createPaymentPayload({ ...required, accepts: [{ ...required.accepts[0]!, network: "eip155:84532" }] });
    expect(await attempt({ "payment-signature": encode({ ...sepolia, accepted: signed.accepted }) })).toBe("payment_invalid_signature");
    expect(await balance(v2Payer.address)).toBe(before);
    // The unspoilt one still pays.
    const ok = await fetch(url, { ...post({ question: ANSWERABLE }), headers: { "content-type": "application/json", "payment-signature": encode(signed) } });
    expect(ok.status).toBe(200);
  });
});

describe("the MCP paid rail (/mcp/x402, keyless)", () => {
  async function mcp(headers: () => Record<string, string> = () => ({})) {
    const seen: { headers: Headers | null } = { headers: null };
    const client = new Client({ name: "x402-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${rig.server.url}/mcp/x402`), {
      fetch: async (url, init) => {
        const h = new Headers(init?.headers);
        for (const [k, v] of Object.entries(headers())) h.set(k, v);
        const res = await fetch(url, { ...init, headers: h });
        seen.headers = res.headers;
        return res;
      },
    });
    await client.connect(transport);
    return { client, seen };
  }

  test("v2 payload in params._meta['x402/payment']: the answer, the settlement in result._meta, no header needed", async () => {
    const { client } = await mcp();
    try {
      const unpaid: any = await client.callTool({ name: "ask_brain", arguments: { brainId, question: ANSWERABLE } });
      expect(unpaid.isError).toBe(true);
      expect(unpaid.structuredContent).toMatchObject({ x402Version: 1, error: "payment_required", accepts: [{ maxAmountRequired: String(PRICE) }] });
      expect(unpaid.content[0].text).toContain('x402 v2 terms: {"x402Version":2');
      const v2Terms = JSON.parse(unpaid.content[0].text.split("x402 v2 terms: ")[1]);
      const payload = await v2Client(v2Payer).createPaymentPayload(v2Terms);
      const before = await balance(v2Payer.address);
      const paid: any = await client.callTool({ name: "ask_brain", arguments: { brainId, question: ANSWERABLE }, _meta: { "x402/payment": payload } });
      expect(paid.isError).toBeFalsy();
      expect(paid.structuredContent.answer).toContain("390 billion");
      expect(paid._meta["x402/payment-response"]).toEqual({ success: true, transaction: paid.structuredContent.payment.tx_hash, network: "eip155:8453", payer: v2Payer.address });
      expect(before - (await balance(v2Payer.address))).toBe(PRICE);
      // The same payload again is a replay, told in the same convention.
      const again: any = await client.callTool({ name: "ask_brain", arguments: { brainId, question: ANSWERABLE }, _meta: { "x402/payment": payload } });
      expect(again.isError).toBe(true);
      expect(again.structuredContent.error).toBe("payment_replayed");
      const junk: any = await client.callTool({ name: "ask_brain", arguments: { brainId, question: ANSWERABLE }, _meta: { "x402/payment": "not an object" } });
      expect(junk.structuredContent.error).toBe("payment_malformed");
    } finally {
      await client.close();
    }
  });

  test("v1 payload object (x402/client's header, decoded) in _meta pays get_context; the settlement says base", async () => {
    const { client } = await mcp();
    try {
      const unpaid: any = await client.callTool({ name: "get_context", arguments: { brainId, query: "Amazon trees" } });
      const v1 = unpaid.structuredContent.accepts[0];
      const { x402PaymentHeader } = await import("../../support/chain/sign");
      const header = await x402PaymentHeader({ privateKey: v1Payer.privateKey as Hex, rpcUrl: rig.chain.rpcUrl, requirements: v1 });
      const payload = JSON.parse(Buffer.from(header, "base64").toString());
      const paid: any = await client.callTool({ name: "get_context", arguments: { brainId, query: "Amazon trees" }, _meta: { "x402/payment": payload } });
      expect(paid.structuredContent.context).toContain("390 billion");
      expect(paid._meta["x402/payment-response"]).toMatchObject({ success: true, network: "base", payer: v1Payer.address });
      expect(await ledgerRow(rig.server, payload.payload.authorization.nonce)).toMatchObject({ status: "settled" });
    } finally {
      await client.close();
    }
  });

  test("v2 PAYMENT-SIGNATURE header on the MCP HTTP request: PAYMENT-RESPONSE header back", async () => {
    let signature = "";
    const { client, seen } = await mcp((): Record<string, string> => (signature ? { "payment-signature": signature } : {}));
    try {
      const unpaid: any = await client.callTool({ name: "ask_brain", arguments: { brainId, question: ANSWERABLE } });
      const v2Terms = JSON.parse(unpaid.content[0].text.split("x402 v2 terms: ")[1]);
      const payload = await v2Client(v2Payer).createPaymentPayload(v2Terms);
      signature = Buffer.from(JSON.stringify(payload)).toString("base64");
      const paid: any = await client.callTool({ name: "ask_brain", arguments: { brainId, question: ANSWERABLE } });
      expect(paid.structuredContent.payment.settled).toBe(true);
      expect(decodePaymentResponseHeader(seen.headers!.get("payment-response")!)).toMatchObject({ success: true, network: "eip155:8453" });
    } finally {
      signature = "";
      await client.close();
    }
  });
});

describe("browsers (CORS)", () => {
  test("the preflight of each wrapper's paid retry is allowed; the payment headers are readable from JS", async () => {
    const url = `${rig.server.url}/api/x402/${brainId}/ask`;
    // What @x402/fetch (v2) and x402-fetch (v1) put on the paid retry, as a browser would announce them.
    for (const requested of ["content-type, payment-signature, access-control-expose-headers", "content-type, x-payment, access-control-expose-headers"]) {
      const pre = await fetch(url, {
        method: "OPTIONS",
        headers: { origin: "https://agent.example", "access-control-request-method": "POST", "access-control-request-headers": requested },
      });
      expect(pre.status).toBe(204);
      const allowed = pre.headers.get("access-control-allow-headers")!.split(",").map((h) => h.trim().toLowerCase());
      for (const header of requested.split(", ")) expect(allowed).toContain(header);
    }
    const res = await fetch(url, { ...post({ question: ANSWERABLE }), headers: { "content-type": "application/json", origin: "https://agent.example" } });
    expect(res.status).toBe(402);
    const exposed = res.headers.get("access-control-expose-headers")!.split(",").map((h) => h.trim().toLowerCase());
    for (const header of ["payment-response", "payment-required", "x-payment-response"]) expect(exposed).toContain(header);
  });
});
