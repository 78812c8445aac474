// Public surface of the payment adapter (x402 v1, `exact` on `base`). Never imports src/modules.
export * from "./wire.ts";
export * from "./checks.ts";
export * from "./facilitator.ts";
export * from "./embedded-facilitator.ts";
export * from "./nonce-ledger.ts";
export * from "./wire-v2.ts";
export * from "./chain-state.ts";
