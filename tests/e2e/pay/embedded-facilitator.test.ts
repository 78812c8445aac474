// The embedded facilitator called directly: the chain-side half of verify, and RPC trouble.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createEmbeddedFacilitator } from "../../../src/pay/embedded-facilitator.ts";
import { FacilitatorUnavailableError } from "../../../src/pay/facilitator.ts";
import { makeRequirements, type PaymentRequirements } from "../../../src/pay/wire.ts";
import { newAccount, startChainRig, TOKEN_NAME, TOKEN_VERSION, type ChainRig } from "../../support/chain/rig.ts";
import { signPayment } from "../../support/chain/sign.ts";

let rig: ChainRig;
let requirements: PaymentRequirements;

beforeAll(async () => {
  rig = await startChainRig();
  requirements = makeRequirements({
    maxAmountRequired: 5_000n,
    asset: rig.token,
    payTo: rig.payTo,
    resource: "https://kb.example/api/x402/geo/scan",
    description: "GEO scan",
    maxTimeoutSeconds: 300,
    extra: { name: TOKEN_NAME, version: TOKEN_VERSION },
  });
});

afterAll(async () => {
  await rig?.stop();
});

describe("createEmbeddedFacilitator", () => {
  test("lists exactly x402 v1 exact on base", async () => {
    const facilitator = createEmbeddedFacilitator({ rpcUrl: rig.rpcUrl, gasPrivateKey: rig.gasKey });
    expect(await facilitator.supported()).toEqual([{ x402Version: 1, scheme: "exact", network: "base" }]);
  });

  test("concurrent settlements of different authorizations from one gas account all land", async () => {
    const facilitator = createEmbeddedFacilitator({ rpcUrl: rig.rpcUrl, gasPrivateKey: rig.gasKey });
    const before = await rig.balanceOf(rig.payTo);
    const payments = await Promise.all(
      Array.from({ length: 5 }, () => signPayment({ privateKey: rig.payer.privateKey, requirements })),
    );
    const results = await Promise.all(payments.map(({ payload }) => facilitator.settle(payload, requirements)));
    expect(results.map((r) => r.success)).toEqual([true, true, true, true, true]);
    expect(new Set(results.map((r) => r.transaction)).size).toBe(5);
    expect((await rig.balanceOf(rig.payTo)) - before).toBe(25_000n);
  });

  test("an unreachable RPC is FacilitatorUnavailableError, not an invalid payment", async () => {
    // Loopback port 1: nothing listens there, and it is outside the ephemeral range. (A just-stopped node's
    // port is in that range: a connection to it may draw the same port as its own source and connect to
    // itself, which once held this test for its whole timeout.)
    const facilitator = createEmbeddedFacilitator({ rpcUrl: "http://127.0.0.1:1", gasPrivateKey: rig.gasKey, rpcTimeoutMs: 1_000 });
    const { payload } = await signPayment({ privateKey: rig.payer.privateKey, requirements });
    await expect(facilitator.verify(payload, requirements)).rejects.toBeInstanceOf(FacilitatorUnavailableError);
    await expect(facilitator.settle(payload, requirements)).rejects.toBeInstanceOf(FacilitatorUnavailableError);
  });

  test("a gas account without ETH is FacilitatorUnavailableError, not the payer's fault", async () => {
    const broke = createEmbeddedFacilitator({ rpcUrl: rig.rpcUrl, gasPrivateKey: newAccount().privateKey });
    const { payload } = await signPayment({ privateKey: rig.payer.privateKey, requirements });
    expect(await broke.verify(payload, requirements)).toMatchObject({ isValid: true }); // a dry run needs no gas
    const error = await broke.settle(payload, requirements).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FacilitatorUnavailableError);
    expect(String(error)).toContain("exceeds the balance");
  });

  test("a node on another chain id is refused before any signature is judged", async () => {
    const facilitator = createEmbeddedFacilitator({ rpcUrl: rig.rpcUrl, gasPrivateKey: rig.gasKey, chainId: 1 });
    const { payload } = await signPayment({ privateKey: rig.payer.privateKey, requirements });
    const error = await facilitator.verify(payload, requirements).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FacilitatorUnavailableError);
    expect(String(error)).toContain("chain 8453, expected 1");
  });

  // Last: it moves chain time forward for good.
  test("the chain's own clock decides at settle: expired on chain → valid_before, nothing moves", async () => {
    const facilitator = createEmbeddedFacilitator({ rpcUrl: rig.rpcUrl, gasPrivateKey: rig.gasKey });
    const { payload } = await signPayment({ privateKey: rig.payer.privateKey, requirements });
    expect(await facilitator.verify(payload, requirements)).toMatchObject({ isValid: true });
    await rig.advanceTime(3_600); // the wall clock still says valid, so only the dry run can catch it
    const before = await rig.balanceOf(rig.payer.address);
    expect(await facilitator.verify(payload, requirements)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_payload_authorization_valid_before",
    });
    expect(await facilitator.settle(payload, requirements)).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_payload_authorization_valid_before",
      transaction: "",
    });
    expect(await rig.balanceOf(rig.payer.address)).toBe(before);
  });
});
