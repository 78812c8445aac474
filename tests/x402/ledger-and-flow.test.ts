// The libSQL nonce ledger and the paidCall flow with a scripted facilitator (no chain): what is reserved,
// released, voided or kept at each step, and that the job and settle run only when they should.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { migrate, openDatabase, type Database } from "../../src/db/client";
import { createLogger } from "../../src/lib/log";
import { PaymentLedger } from "../../src/modules/x402/ledger";
import { createPaidCall } from "../../src/modules/x402/paid-call";
import type { Rail } from "../../src/modules/x402/rail";
import { FacilitatorProtocolError, FacilitatorUnavailableError, makeRequirements, type Facilitator, type SettleResult, type VerifyResult } from "../../src/pay";
import { newAccount } from "../support/chain/rig";
import { randomNonce, signPayment } from "../support/chain/sign";
import { tempDir } from "../support/server";

let dir: string;
let database: Database;
let ledger: PaymentLedger;

beforeAll(async () => {
  dir = tempDir();
  database = openDatabase({ dataDir: dir });
  await migrate(database.client);
  ledger = new PaymentLedger(database.db);
});
afterAll(() => {
  database?.close();
  rmSync(dir, { recursive: true, force: true });
});

const details = { payTo: "0xpay", resource: "http://x/ask", amountAtomic: "1" };

describe("PaymentLedger", () => {
  test("twenty concurrent reservations of one nonce: exactly one winner, also across hex case", async () => {
    const nonce = randomNonce();
    const wins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ledger.reserve(i % 2 ? nonce : nonce.toUpperCase().replace("0X", "0x"), "0xA", details)),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  test("release frees only a reservation; voided, unknown and settled rows stay taken", async () => {
    const free = randomNonce();
    expect(await ledger.reserve(free, "0xA", details)).toBe(true);
    await ledger.release(free);
    expect(await ledger.lookup(free)).toBeUndefined();
    expect(await ledger.reserve(free, "0xA", details)).toBe(true);

    for (const [mark, status] of [
      [(n: string) => ledger.markVoided(n, "thin"), "voided"],
      [(n: string) => ledger.markUnknown(n, "settle_unreachable"), "unknown"],
      [(n: string) => ledger.markSettled(n, "0xtx"), "settled"],
    ] as const) {
      const nonce = randomNonce();
      await ledger.reserve(nonce, "0xA", details);
      await mark(nonce);
      await ledger.release(nonce);
      expect((await ledger.lookup(nonce))?.status).toBe(status);
      expect(await ledger.reserve(nonce, "0xB", details)).toBe(false);
    }
  });

  test("a voided row is never turned into settled; an unknown one can be, after reconciliation", async () => {
    const voided = randomNonce();
    await ledger.reserve(voided, "0xA", details);
    await ledger.markVoided(voided, "thin");
    await ledger.markSettled(voided, "0xtx");
    expect((await ledger.lookup(voided))?.status).toBe("voided");
    const unknown = randomNonce();
    await ledger.reserve(unknown, "0xA", details);
    await ledger.markUnknown(unknown, "settle_unreachable");
    await ledger.markSettled(unknown, "0xtx");
    expect(await ledger.lookup(unknown)).toMatchObject({ status: "settled", txHash: "0xtx", reason: null });
  });
});

describe("paidCall order of operations", () => {
  const payer = newAccount();
  const requirements = makeRequirements({
    maxAmountRequired: 5000n,
    asset: newAccount().address,
    payTo: newAccount().address,
    resource: "http://127.0.0.1/api/x402/b/ask",
    description: "test",
    maxTimeoutSeconds: 120,
    extra: { name: "USD Coin", version: "2" },
  });

  /** A facilitator whose answers the test scripts, recording what was called. */
  function scripted(verify: () => Promise<VerifyResult>, settle: () => Promise<SettleResult>) {
    const calls: string[] = [];
    const facilitator: Facilitator = {
      supported: async () => [{ x402Version: 1, scheme: "exact", network: "base" }],
      verify: async () => (calls.push("verify"), verify()),
      settle: async () => (calls.push("settle"), settle()),
    };
    const rail = { configured: true, facilitator: async () => facilitator } as unknown as Rail;
    return { calls, paidCall: createPaidCall({ rail, ledger, log: createLogger("error", () => {}) }) };
  }
  const ok = async (): Promise<VerifyResult> => ({ isValid: true, payer: payer.address });
  const settled = async (): Promise<SettleResult> => ({ success: true, transaction: `0x${"ab".repeat(32)}`, network: "base", payer: payer.address });
  const header = async () => (await signPayment({ privateKey: payer.privateKey, requirements })).header;
  const nonceOf = (h: string) => JSON.parse(Buffer.from(h, "base64").toString()).payload.authorization.nonce as string;

  test("a job that throws: the error reaches the caller, nothing is settled, the nonce is voided", async () => {
    const { calls, paidCall } = scripted(ok, settled);
    const h = await header();
    await expect(paidCall({ requirements, payment: { v1: h }, run: async () => Promise.reject(new Error("boom")) })).rejects.toThrow("boom");
    expect(calls).toEqual(["verify"]);
    expect(await ledger.lookup(nonceOf(h))).toMatchObject({ status: "voided", reason: "job_failed: boom" });
  });

  test("verify unavailable: 503 and released; verify garbage: 502 and released; the job never runs", async () => {
    let ran = false;
    const run = async () => ((ran = true), { result: 1, thin: false });
    for (const [error, status] of [
      [new FacilitatorUnavailableError("verify", "down"), 503],
      [new FacilitatorProtocolError("verify", "nonsense"), 502],
    ] as const) {
      const { calls, paidCall } = scripted(() => Promise.reject(error), settled);
      const h = await header();
      const outcome = await paidCall({ requirements, payment: { v1: h }, run });
      expect(outcome.status).toBe(status);
      expect(calls).toEqual(["verify"]);
      expect(await ledger.lookup(nonceOf(h))).toBeUndefined();
    }
    expect(ran).toBe(false);
  });

  test("the facilitator's payer must be the signer", async () => {
    const { paidCall } = scripted(async () => ({ isValid: true, payer: newAccount().address }), settled);
    const outcome = await paidCall({ requirements, payment: { v1: await header() }, run: async () => ({ result: 1, thin: false }) });
    expect(outcome).toMatchObject({ status: 402, body: { error: "payment_payer_mismatch" } });
  });

  test("settled: the result, the receipt and the ledger agree", async () => {
    const { calls, paidCall } = scripted(ok, settled);
    const h = await header();
    const outcome = await paidCall({ requirements, payment: { v1: h }, run: async () => ({ result: { answer: 42 }, thin: false }) });
    expect(outcome).toMatchObject({ ok: true, result: { answer: 42 }, payment: { settled: true, amount: "5000", payer: payer.address } });
    expect(calls).toEqual(["verify", "settle"]);
    expect((await ledger.lookup(nonceOf(h)))?.status).toBe("settled");
  });
});
