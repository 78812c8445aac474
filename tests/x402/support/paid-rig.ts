// A whole paid rail on loopback: anvil (chain 8453) with the EIP-3009 token, the facilitator stand-in
// settling on it over HTTP, and a Brainbox configured to take payments in that token.
import { expect } from "bun:test";
import type { PaymentRequirements } from "../../../src/pay";
import { startFacilitator, type FacilitatorStandIn } from "../../support/chain/facilitator-standin";
import { newAccount, startChainRig, TOKEN_NAME, TOKEN_VERSION, type ChainRig } from "../../support/chain/rig";
import { expectJson, startTestServer, type TestServer } from "../../support/server";
import { addText, newBrain, waitForSource } from "../../support/sources";
import { startFlakyProxy, type FlakyProxy } from "./flaky-proxy";

export interface PaidRig {
  chain: ChainRig;
  facilitator: FacilitatorStandIn;
  /** Between Brainbox and the stand-in, to break one facilitator endpoint at a time. */
  proxy: FlakyProxy;
  server: TestServer;
  /** Receives the app actions' payments. */
  appPayTo: string;
  stop(): Promise<void>;
}

/** `env` may depend on the chain (e.g. BRAINBOX_X402_RPC_URL: chain.rpcUrl). */
export async function startPaidRig(env: Record<string, string> | ((chain: ChainRig) => Record<string, string>) = {}): Promise<PaidRig> {
  const chain = await startChainRig();
  const facilitator = startFacilitator({ rpcUrl: chain.rpcUrl, gasKey: chain.gasKey });
  const proxy = startFlakyProxy(facilitator.url);
  const appPayTo = newAccount().address;
  const server = await startTestServer({
    BRAINBOX_X402_FACILITATOR_URL: proxy.url,
    BRAINBOX_X402_ASSET: chain.token,
    BRAINBOX_X402_ASSET_NAME: TOKEN_NAME,
    BRAINBOX_X402_ASSET_VERSION: TOKEN_VERSION,
    BRAINBOX_X402_PAY_TO: appPayTo,
    BRAINBOX_X402_MAX_TIMEOUT_SECONDS: "120",
    BRAINBOX_X402_FACILITATOR_TIMEOUT_MS: "3000",
    ...(typeof env === "function" ? env(chain) : env),
  });
  return {
    chain,
    facilitator,
    proxy,
    server,
    appPayTo,
    async stop() {
      await server.close();
      await proxy.stop();
      await facilitator.stop();
      await chain.stop();
    },
  };
}

export const RAINFOREST = `The Amazon rainforest is a moist broadleaf tropical rainforest in the Amazon biome that covers most of the Amazon basin of South America.
This basin encompasses seven million square kilometres, of which five and a half million square kilometres are covered by the rainforest.
The region includes territory belonging to nine nations, with Brazil holding sixty percent of the rainforest.
The Amazon represents over half of the planet's remaining rainforests and comprises the largest and most biodiverse tract of tropical rainforest in the world, with an estimated 390 billion individual trees in about 16,000 species.
Deforestation of the Amazon rainforest is driven by cattle ranching, soybean farming and logging, and it threatens the many species living there.`;

/** A brain with one ready text source, made public and paid. */
export async function newPaidBrain(s: TestServer, terms: { priceAtomic: string | number; payTo: string }, content = RAINFOREST): Promise<string> {
  const brainId = await newBrain(s);
  const { source } = await addText(s, brainId, "Amazon rainforest", content);
  expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  await expectJson(await s.api(`/api/v1/brains/${brainId}/paid`, { method: "PUT", json: { visibility: "public", ...terms } }), 200);
  return brainId;
}

/** POSTs without payment and returns the single `accepts` entry of the 402. */
export async function termsOf(s: TestServer, path: string, body: unknown): Promise<PaymentRequirements> {
  const reply = await expectJson(await s.api(path, { method: "POST", json: body, key: null }), 402);
  expect(reply.x402Version).toBe(1);
  expect(reply.accepts).toHaveLength(1);
  return reply.accepts[0];
}

/** POSTs with an X-PAYMENT header and no API key. */
export function payAndCall(s: TestServer, path: string, body: unknown, header: string, headers: Record<string, string> = {}): Promise<Response> {
  return s.api(path, { method: "POST", json: body, key: null, headers: { "X-PAYMENT": header, ...headers } });
}

/** A question the rainforest brain answers (not thin), and one it cannot. */
export const ANSWERABLE = "How many individual trees and species does the Amazon rainforest have?";
export const UNANSWERABLE = "What is the airspeed of quantum zebras?";

/** How many times the paid ask's job ran on a brain (the answer service records each x402 ask). */
export async function paidAsksRun(s: TestServer, brainId: string): Promise<number> {
  const rows = await s.ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM asks WHERE brain_id = ? AND surface = 'x402'", args: [brainId] });
  return Number(rows.rows[0]?.n ?? 0);
}

/** The ledger row of an authorization nonce, if any. */
export async function ledgerRow(s: TestServer, nonce: string): Promise<{ status: string; tx_hash: string | null; reason: string | null } | undefined> {
  const rows = await s.ctx.database.client.execute({ sql: "SELECT status, tx_hash, reason FROM payments WHERE nonce = ?", args: [nonce.toLowerCase()] });
  return rows.rows[0] as any;
}

export function nonceOf(header: string): string {
  return JSON.parse(Buffer.from(header, "base64").toString("utf8")).payload.authorization.nonce;
}

/** A paid rig with one paid brain whose ask is ready to be paid: what the paid-ask test files share. */
export async function startPaidAsk(price: bigint): Promise<{ rig: PaidRig; brainId: string; payTo: string; path: string; requirements: PaymentRequirements }> {
  const rig = await startPaidRig();
  const payTo = newAccount().address;
  const brainId = await newPaidBrain(rig.server, { priceAtomic: String(price), payTo });
  const path = `/api/x402/${brainId}/ask`;
  return { rig, brainId, payTo, path, requirements: await termsOf(rig.server, path, { question: ANSWERABLE }) };
}
