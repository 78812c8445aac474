// End to end on a real chain: client signs, the server checks, the facilitator stand-in verifies and
// settles over loopback HTTP, and the token balances move on anvil.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkPayment } from "../../../src/pay/checks.ts";
import {
  assertFacilitatorSupportsBase,
  createHttpFacilitator,
  FacilitatorUnavailableError,
  type Facilitator,
} from "../../../src/pay/facilitator.ts";
import { decodePaymentHeader, makeRequirements, type PaymentRequirements } from "../../../src/pay/wire.ts";
import { startFacilitator, type FacilitatorStandIn } from "../../support/chain/facilitator-standin.ts";
import { PAYER_FUNDS, startChainRig, TOKEN_NAME, TOKEN_VERSION, type ChainRig } from "../../support/chain/rig.ts";
import { signPayment, x402PaymentHeader } from "../../support/chain/sign.ts";

let rig: ChainRig;
let standIn: FacilitatorStandIn;
let facilitator: Facilitator;
let requirements: PaymentRequirements;

beforeAll(async () => {
  rig = await startChainRig();
  standIn = startFacilitator({ rpcUrl: rig.rpcUrl, gasKey: rig.gasKey });
  facilitator = createHttpFacilitator(standIn.url, { timeoutMs: 2_000 });
  requirements = quote(25_000n);
});

afterAll(async () => {
  await standIn?.stop();
  await rig?.stop();
});

function quote(amount: bigint): PaymentRequirements {
  return makeRequirements({
    maxAmountRequired: amount,
    asset: rig.token,
    payTo: rig.payTo,
    resource: "https://kb.example/api/x402/b1/ask",
    description: "Ask brain b1",
    maxTimeoutSeconds: 120,
    extra: { name: TOKEN_NAME, version: TOKEN_VERSION },
  });
}

/** The server's order: decode, check locally, verify, (job), settle. */
async function pay(header: string, reqs = requirements) {
  const payload = decodePaymentHeader(header);
  const local = await checkPayment(payload, reqs, Date.now() / 1000);
  expect(local.ok).toBe(true);
  const verified = await facilitator.verify(payload, reqs);
  const settled = await facilitator.settle(payload, reqs);
  return { payload, verified, settled };
}

async function balances() {
  return { payer: await rig.balanceOf(rig.payer.address), payTo: await rig.balanceOf(rig.payTo) };
}

describe("settlement on anvil through the HTTP facilitator", () => {
  test("the payer holds USDC and no ETH", async () => {
    expect(await rig.ethBalanceOf(rig.payer.address)).toBe(0n);
    expect(await rig.balanceOf(rig.payer.address)).toBeGreaterThan(0n);
  });

  test("the facilitator supports x402 v1 exact on base", async () => {
    await assertFacilitatorSupportsBase(facilitator);
    expect(standIn.calls).toContain("GET /supported");
  });

  test("paid with x402's reference client: balances move by exactly the value", async () => {
    const before = await balances();
    const header = await x402PaymentHeader({ privateKey: rig.payer.privateKey, rpcUrl: rig.rpcUrl, requirements });
    const { verified, settled } = await pay(header);
    expect(verified).toEqual({ isValid: true, payer: rig.payer.address });
    expect(settled.success).toBe(true);
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(settled.network).toBe("base");
    expect(settled.payer).toBe(rig.payer.address);
    const after = await balances();
    expect(before.payer - after.payer).toBe(25_000n);
    expect(after.payTo - before.payTo).toBe(25_000n);
    expect(await rig.ethBalanceOf(rig.payer.address)).toBe(0n); // the facilitator paid the gas
  });

  test("paid with raw viem signTypedData: balances move by exactly the value", async () => {
    const reqs = quote(1_234_567n);
    const before = await balances();
    const { header } = await signPayment({ privateKey: rig.payer.privateKey, requirements: reqs });
    const { settled } = await pay(header, reqs);
    expect(settled.success).toBe(true);
    const after = await balances();
    expect(before.payer - after.payer).toBe(1_234_567n);
    expect(after.payTo - before.payTo).toBe(1_234_567n);
  });

  test("settling the same authorization twice fails the second time and moves nothing", async () => {
    const { header } = await signPayment({ privateKey: rig.payer.privateKey, requirements });
    const payload = decodePaymentHeader(header);
    expect((await facilitator.settle(payload, requirements)).success).toBe(true);
    const before = await balances();
    const again = await facilitator.settle(payload, requirements);
    expect(again).toMatchObject({ success: false, errorReason: "duplicate_settlement", transaction: "" });
    expect(await facilitator.verify(payload, requirements)).toMatchObject({ isValid: false, invalidReason: "duplicate_settlement" });
    expect(await balances()).toEqual(before);
  });

  test("two concurrent settlements of one authorization: exactly one moves money", async () => {
    const { payload } = await signPayment({ privateKey: rig.payer.privateKey, requirements });
    const before = await balances();
    const results = await Promise.all([facilitator.settle(payload, requirements), facilitator.settle(payload, requirements)]);
    expect(results.filter((r) => r.success)).toHaveLength(1);
    const after = await balances();
    expect(before.payer - after.payer).toBe(25_000n);
  });

  test("insufficient balance: verify is invalid and settle moves nothing", async () => {
    const poor = await rig.newPayer(10_000n);
    const { payload } = await signPayment({ privateKey: poor.privateKey, requirements });
    expect((await checkPayment(payload, requirements, Date.now() / 1000)).ok).toBe(true); // locally fine
    expect(await facilitator.verify(payload, requirements)).toEqual({
      isValid: false,
      invalidReason: "insufficient_funds",
      payer: poor.address,
    });
    expect(await facilitator.settle(payload, requirements)).toMatchObject({ success: false, errorReason: "insufficient_funds" });
    expect(await rig.balanceOf(poor.address)).toBe(10_000n);
  });

  test("the facilitator refuses what the server's checks refuse (value above the quote, wrong asset)", async () => {
    const above = await signPayment({ privateKey: rig.payer.privateKey, requirements, authorization: { value: "25001" } });
    expect(await facilitator.verify(above.payload, requirements)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_payload_authorization_value",
    });
    const otherToken = await signPayment({ privateKey: rig.payer.privateKey, requirements, domain: { verifyingContract: rig.payTo } });
    expect(await facilitator.verify(otherToken.payload, requirements)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_payload_signature",
    });
  });

  test("a not-yet-valid authorization is refused at settle too (settle re-verifies)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const { payload } = await signPayment({
      privateKey: rig.payer.privateKey,
      requirements,
      authorization: { validAfter: String(now + 30) },
    });
    // Straight to settle, as if the server had skipped its own checks.
    const settled = await facilitator.settle(payload, requirements);
    expect(settled).toMatchObject({ success: false, errorReason: "invalid_exact_evm_payload_authorization_valid_after" });
  });

  test("a settle failure reported by the facilitator is a result, not an exception", async () => {
    const { payload } = await signPayment({ privateKey: rig.payer.privateKey, requirements });
    standIn.setSettleFailure("unexpected_settle_error");
    try {
      expect(await facilitator.settle(payload, requirements)).toEqual({
        success: false,
        errorReason: "unexpected_settle_error",
        transaction: "",
        network: "base",
      });
    } finally {
      standIn.setSettleFailure(null);
    }
    // The authorization was never used, so it still settles afterwards.
    expect((await facilitator.settle(payload, requirements)).success).toBe(true);
  });

  test("facilitator down: FacilitatorUnavailableError, nothing moves; back up: the same payment settles", async () => {
    const { payload } = await signPayment({ privateKey: rig.payer.privateKey, requirements });
    const before = await balances();
    standIn.setDown(true);
    try {
      await expect(facilitator.verify(payload, requirements)).rejects.toBeInstanceOf(FacilitatorUnavailableError);
      const error = await facilitator.settle(payload, requirements).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FacilitatorUnavailableError);
      expect(error).toMatchObject({ code: "facilitator_unavailable", operation: "settle" });
    } finally {
      standIn.setDown(false);
    }
    expect(await balances()).toEqual(before);
    expect((await facilitator.settle(payload, requirements)).success).toBe(true);
  });

  test("payer never needed ETH and total supply only moved between the two accounts", async () => {
    const { payer, payTo } = await balances();
    expect(await rig.ethBalanceOf(rig.payer.address)).toBe(0n);
    expect(payer + payTo).toBe(PAYER_FUNDS);
  });
});
