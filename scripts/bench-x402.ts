// Paid-call latency on a local anvil chain through the facilitator stand-in, side by side in one run:
// the seed's v1 flow (X-PAYMENT) as the baseline, the v2 flow (PAYMENT-SIGNATURE from @x402/core's client),
// and the retry that collects a payment whose settle reply was lost (chain read + log lookup + job).
// The job is a small share card (social/image 200x100), so payment handling dominates.
// Usage: bun scripts/bench-x402.ts [calls=20]
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";
import { startFacilitator } from "../tests/support/chain/facilitator-standin";
import { newAccount, startChainRig } from "../tests/support/chain/rig";
import { signPayment } from "../tests/support/chain/sign";
import { startTestServer } from "../tests/support/server";
import { startFlakyProxy } from "../tests/x402/support/flaky-proxy";

const calls = Number(process.argv[2] ?? 20);
const chain = await startChainRig();
const facilitator = startFacilitator({ rpcUrl: chain.rpcUrl, gasKey: chain.gasKey });
const proxy = startFlakyProxy(facilitator.url);
const server = await startTestServer({
  BRAINBOX_X402_FACILITATOR_URL: proxy.url,
  BRAINBOX_X402_RPC_URL: chain.rpcUrl,
  BRAINBOX_X402_RECONCILE_INTERVAL_MS: "0",
  BRAINBOX_X402_ASSET: chain.token,
  BRAINBOX_X402_PAY_TO: newAccount().address,
  BRAINBOX_X402_MAX_TIMEOUT_SECONDS: "120",
});
const path = "/api/x402/social/image";
const body = { title: "Bench", width: 200, height: 100 };
const post = (headers: Record<string, string> = {}) => server.api(path, { method: "POST", json: body, key: null, headers });

const first = await post();
const v1Terms = ((await first.json()) as any).accepts[0];
const v2Terms = decodePaymentRequiredHeader(first.headers.get("payment-required")!);
const v2 = new x402Client()
  .register("eip155:8453", new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey)))
  .setSpendControls({ allowedAssets: [{ network: "eip155:8453", asset: chain.token }] });

async function timed(run: () => Promise<Response>, expected: number): Promise<number> {
  const start = performance.now();
  const res = await run();
  await res.arrayBuffer();
  if (res.status !== expected) throw new Error(`expected ${expected}, got ${res.status}`);
  return performance.now() - start;
}
const v1Header = async () => (await signPayment({ privateKey: chain.payer.privateKey, requirements: v1Terms })).header;
const v2Header = async () => Buffer.from(JSON.stringify(await v2.createPaymentPayload(v2Terms))).toString("base64");

const samples: Record<string, number[]> = { "v1 X-PAYMENT (baseline)": [], "v2 PAYMENT-SIGNATURE": [], "lost reply, collecting retry": [] };
for (let i = 0; i < calls; i++) {
  const h1 = await v1Header();
  samples["v1 X-PAYMENT (baseline)"]!.push(await timed(() => post({ "X-PAYMENT": h1 }), 200));
  const h2 = await v2Header();
  samples["v2 PAYMENT-SIGNATURE"]!.push(await timed(() => post({ "PAYMENT-SIGNATURE": h2 }), 200));
  const h3 = await v1Header();
  proxy.break("/settle", "lost-reply");
  await timed(() => post({ "X-PAYMENT": h3 }), 503);
  proxy.break("/settle", null);
  samples["lost reply, collecting retry"]!.push(await timed(() => post({ "X-PAYMENT": h3 }), 200));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const baseline = median(samples["v1 X-PAYMENT (baseline)"]!);
console.log(`paid social/image on anvil, ${calls} calls each (median ms, ratio to the v1 baseline)`);
for (const [name, xs] of Object.entries(samples)) console.log(`${name.padEnd(32)} ${median(xs).toFixed(1).padStart(7)} ms  x${(median(xs) / baseline).toFixed(2)}`);

await server.close();
await proxy.stop();
await facilitator.stop();
await chain.stop();
