// The server's own checks, before any facilitator: pure, so no chain is needed here.
import { describe, expect, test } from "bun:test";
import { checkPayment } from "../../src/pay/checks.ts";
import { makeRequirements, type PaymentPayload } from "../../src/pay/wire.ts";
import { newAccount } from "../support/chain/rig.ts";
import { signPayment, type SignOptions } from "../support/chain/sign.ts";

const payer = newAccount();
const payTo = newAccount().address;
const asset = newAccount().address; // only its address matters: it is the EIP-712 verifyingContract
const requirements = makeRequirements({
  maxAmountRequired: 25_000n,
  asset,
  payTo,
  resource: "https://kb.example/api/x402/b1/ask",
  description: "Ask brain b1",
  maxTimeoutSeconds: 120,
  extra: { name: "USD Coin", version: "2" },
});
const now = Math.floor(Date.now() / 1000);

async function check(options: Partial<SignOptions> = {}, checkAt = now) {
  const { payload } = await signPayment({ privateKey: payer.privateKey, requirements, now, ...options });
  return checkPayment(payload, requirements, checkAt);
}

async function codeOf(options: Partial<SignOptions> = {}, checkAt = now) {
  const result = await check(options, checkAt);
  return result.ok ? "ok" : result.code;
}

function withAuth(p: PaymentPayload, change: Partial<PaymentPayload["payload"]["authorization"]>): PaymentPayload {
  return { ...p, payload: { ...p.payload, authorization: { ...p.payload.authorization, ...change } } };
}

describe("checkPayment", () => {
  test("accepts a payment that matches the quote, and reports payer, value and nonce", async () => {
    const { payload } = await signPayment({ privateKey: payer.privateKey, requirements, now });
    const result = await checkPayment(payload, requirements, now);
    expect(result).toEqual({ ok: true, payer: payer.address, value: 25_000n, nonce: payload.payload.authorization.nonce as `0x${string}` });
  });

  test("address case does not matter for payTo", async () => {
    expect(await codeOf({ authorization: { to: payTo.toLowerCase() } })).toBe("ok");
    const upper = { ...requirements, payTo: `0x${payTo.slice(2).toUpperCase()}` };
    const { payload } = await signPayment({ privateKey: payer.privateKey, requirements, now });
    expect((await checkPayment(payload, upper, now)).ok).toBe(true);
  });

  test("wrong payTo", async () => {
    expect(await codeOf({ authorization: { to: newAccount().address } })).toBe("payment_recipient");
  });

  test("wrong asset or domain: signed for another token, name, version or chain", async () => {
    expect(await codeOf({ domain: { verifyingContract: newAccount().address } })).toBe("payment_invalid_signature");
    expect(await codeOf({ domain: { name: "USDC" } })).toBe("payment_invalid_signature");
    expect(await codeOf({ domain: { version: "1" } })).toBe("payment_invalid_signature");
    expect(await codeOf({ domain: { chainId: 84532 } })).toBe("payment_invalid_signature"); // base-sepolia
    // The requirements name another asset than the one the client signed for.
    const { payload } = await signPayment({ privateKey: payer.privateKey, requirements, now });
    const otherAsset = { ...requirements, asset: newAccount().address };
    expect(await checkPayment(payload, otherAsset, now)).toMatchObject({ ok: false, code: "payment_invalid_signature" });
  });

  test("wrong network or scheme", async () => {
    expect(await codeOf({ tamper: (p) => ({ ...p, network: "base-sepolia" }) })).toBe("payment_network");
    expect(await codeOf({ tamper: (p) => ({ ...p, network: "eip155:8453" }) })).toBe("payment_network");
    expect(await codeOf({ tamper: (p) => ({ ...p, scheme: "upto" }) })).toBe("payment_scheme");
  });

  test("value tampered after signing", async () => {
    // Signed below the quote, then raised to it: only the signature can tell.
    const raised = { authorization: { value: "24999" }, tamper: (p: PaymentPayload) => withAuth(p, { value: "25000" }) };
    expect(await codeOf(raised)).toBe("payment_invalid_signature");
    // Signed at the quote, then changed: refused as not the quote before any crypto.
    expect(await codeOf({ tamper: (p) => withAuth(p, { value: "25001" }) })).toBe("payment_amount");
  });

  test("other signed fields tampered after signing", async () => {
    expect(await codeOf({ tamper: (p) => withAuth(p, { validBefore: String(now + 100) }) })).toBe("payment_invalid_signature");
    expect(await codeOf({ tamper: (p) => withAuth(p, { nonce: `0x${"00".repeat(32)}` }) })).toBe("payment_invalid_signature");
  });

  test("value above or below the quote, even when honestly signed", async () => {
    const above = await check({ authorization: { value: "25001" } });
    expect(above).toMatchObject({ ok: false, code: "payment_amount" });
    expect(!above.ok && above.message).toContain("exceeds");
    const below = await check({ authorization: { value: "24999" } });
    expect(below).toMatchObject({ ok: false, code: "payment_amount" });
    expect(!below.ok && below.message).toContain("below");
    expect(await codeOf({ authorization: { value: "0" } })).toBe("payment_amount");
  });

  test("another signer than authorization.from", async () => {
    const other = newAccount();
    expect(await codeOf({ privateKey: other.privateKey, authorization: { from: payer.address } })).toBe("payment_invalid_signature");
    // Signed by the other key for itself, then from swapped to the payer.
    expect(
      await codeOf({ privateKey: other.privateKey, tamper: (p) => withAuth(p, { from: payer.address }) }),
    ).toBe("payment_invalid_signature");
  });

  test("expired validBefore, or too close to leave time to settle", async () => {
    expect(await codeOf({ authorization: { validBefore: String(now - 1) } })).toBe("payment_expired");
    expect(await codeOf({ authorization: { validBefore: String(now + 3) } })).toBe("payment_expired");
    expect(await codeOf({}, now + 200)).toBe("payment_expired"); // checked after the window closed
  });

  test("future validAfter", async () => {
    expect(await codeOf({ authorization: { validAfter: String(now + 60) } })).toBe("payment_not_yet_valid");
    expect(await codeOf({ authorization: { validAfter: String(now) } })).toBe("ok");
  });

  test("validBefore further out than maxTimeoutSeconds allows", async () => {
    expect(await codeOf({ authorization: { validBefore: String(now + 3600) } })).toBe("payment_window_too_long");
    expect(await codeOf({ authorization: { validBefore: String(now + 120 + 30) } })).toBe("ok"); // within the slack
    expect(await codeOf({ authorization: { validBefore: String(now + 120 + 31) } })).toBe("payment_window_too_long");
  });

  test("signature and nonce formats", async () => {
    const sig = (signature: string) => (p: PaymentPayload) => ({ ...p, payload: { ...p.payload, signature } });
    expect(await codeOf({ tamper: sig("") })).toBe("payment_signature_malformed");
    expect(await codeOf({ tamper: sig("0xzz") })).toBe("payment_signature_malformed");
    expect(await codeOf({ tamper: sig(`0x${"ab".repeat(64)}`) })).toBe("payment_signature_malformed");
    expect(await codeOf({ tamper: sig(`0x${"00".repeat(65)}`) })).toBe("payment_invalid_signature");
    expect(await codeOf({ tamper: (p) => withAuth(p, { nonce: "0x1234" }) })).toBe("payment_nonce_malformed");
    expect(await codeOf({ tamper: (p) => withAuth(p, { from: "alice" }) })).toBe("payment_malformed");
  });

  test("a malleated (high-s) twin of a valid signature is refused like the token would", async () => {
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const flip = (p: PaymentPayload) => {
      const s = p.payload.signature;
      const highS = (n - BigInt(`0x${s.slice(66, 130)}`)).toString(16).padStart(64, "0");
      const v = Number.parseInt(s.slice(130, 132), 16) === 27 ? "1c" : "1b";
      return { ...p, payload: { ...p.payload, signature: `${s.slice(0, 66)}${highS}${v}` } };
    };
    expect(await codeOf({ tamper: flip })).toBe("payment_invalid_signature");
  });
});
