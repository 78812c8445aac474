// BRAINBOX_X402_RPC_URL has two roles: with a gas key (and no facilitator URL) it runs the embedded
// facilitator; beside a facilitator URL it is a read-only node for reconciling lost settlements.
import { expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { createRail, X402ConfigError } from "../../src/modules/x402/rail";

const base = { BRAINBOX_DATA_DIR: "/tmp/unused" };
const KEY = `0x${"11".repeat(32)}`;
const rail = (env: Record<string, string>) => createRail(loadConfig({ ...base, ...env }));

test("facilitator URL + RPC URL: an HTTP facilitator and a chain reader for reconciliation", () => {
  const r = rail({ BRAINBOX_X402_FACILITATOR_URL: "http://127.0.0.1:9/", BRAINBOX_X402_RPC_URL: "http://127.0.0.1:8/" });
  expect(r.configured).toBe(true);
  expect(r.chain).not.toBeNull();
});

test("facilitator URL alone: no chain reader (a retry still settles again through the facilitator)", () => {
  expect(rail({ BRAINBOX_X402_FACILITATOR_URL: "http://127.0.0.1:9/" }).chain).toBeNull();
});

test("RPC URL + gas key: the embedded facilitator, and the same node reconciles", () => {
  const r = rail({ BRAINBOX_X402_RPC_URL: "http://127.0.0.1:8/", BRAINBOX_X402_GAS_PRIVATE_KEY: KEY });
  expect(r.configured).toBe(true);
  expect(r.chain).not.toBeNull();
});

test("half or double settings refuse to start, naming the variables", () => {
  expect(() => rail({ BRAINBOX_X402_RPC_URL: "http://127.0.0.1:8/" })).toThrow(X402ConfigError);
  expect(() => rail({ BRAINBOX_X402_RPC_URL: "http://127.0.0.1:8/" })).toThrow("BRAINBOX_X402_GAS_PRIVATE_KEY");
  expect(() => rail({ BRAINBOX_X402_GAS_PRIVATE_KEY: KEY })).toThrow("BRAINBOX_X402_RPC_URL");
  expect(() => rail({ BRAINBOX_X402_FACILITATOR_URL: "http://127.0.0.1:9/", BRAINBOX_X402_RPC_URL: "http://127.0.0.1:8/", BRAINBOX_X402_GAS_PRIVATE_KEY: KEY })).toThrow("not both");
  expect(() => loadConfig({ ...base, BRAINBOX_X402_RECONCILE_INTERVAL_MS: "-5" })).toThrow("BRAINBOX_X402_RECONCILE_INTERVAL_MS");
});
