// x402 v2 wire: PAYMENT-REQUIRED / PAYMENT-SIGNATURE / PAYMENT-RESPONSE codecs against the reference
// package's own decoders (@x402/core/http), and the v1 payload a v2 payment carries.
import { describe, expect, test } from "bun:test";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import {
  decodePaymentSignature,
  encodePaymentRequiredV2,
  encodePaymentResponseV2,
  makeRequirements,
  PaymentHeaderError,
  paymentRequiredV2,
  v1PayloadOf,
} from "../../src/pay";

const requirements = makeRequirements({
  maxAmountRequired: 10_000n,
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  payTo: "0x1111111111111111111111111111111111111111",
  resource: "https://bb.example/api/x402/brn_1/ask",
  description: "Ask",
  maxTimeoutSeconds: 300,
  extra: { name: "USD Coin", version: "2" },
});
const authorization = { from: "0x2222222222222222222222222222222222222222", to: requirements.payTo, value: "10000", validAfter: "0", validBefore: "9999999999", nonce: `0x${"ab".repeat(32)}` };
const signature = `0x${"cd".repeat(65)}`;
const accepted = paymentRequiredV2(undefined, [requirements]).accepts[0]!;
const payment = { x402Version: 2, resource: { url: requirements.resource }, accepted, payload: { signature, authorization } };

describe("x402 v2 codecs", () => {
  test("PAYMENT-REQUIRED decodes with the reference decoder: CAIP-2 network, amount, resource", () => {
    const decoded = decodePaymentRequiredHeader(encodePaymentRequiredV2(paymentRequiredV2("payment_required", [requirements])));
    expect(decoded).toEqual({
      x402Version: 2,
      error: "payment_required",
      resource: { url: requirements.resource, description: "Ask", mimeType: "application/json" },
      accepts: [{ scheme: "exact", network: "eip155:8453", amount: "10000", asset: requirements.asset, payTo: requirements.payTo, maxTimeoutSeconds: 300, extra: { name: "USD Coin", version: "2" } }],
    });
  });

  test("PAYMENT-RESPONSE decodes with the reference decoder", () => {
    const header = encodePaymentResponseV2({ success: true, transaction: "0xtx", network: "base", payer: authorization.from });
    expect(decodePaymentResponseHeader(header)).toEqual({ success: true, transaction: "0xtx", network: "eip155:8453", payer: authorization.from });
  });

  test("a reference-encoded PAYMENT-SIGNATURE decodes to the v1 payload it carries", () => {
    const decoded = decodePaymentSignature(encodePaymentSignatureHeader(payment as any));
    expect(v1PayloadOf(decoded, requirements)).toEqual({ x402Version: 1, scheme: "exact", network: "base", payload: { signature, authorization } });
  });

  test("terms other than ours are named: scheme, network, asset, payTo, amount", () => {
    const cases: Array<[Partial<typeof accepted> | Record<string, string>, string]> = [
      [{ scheme: "upto" }, "payment_scheme"],
      [{ network: "base" }, "payment_network"],
      [{ network: "eip155:84532" }, "payment_network"],
      [{ asset: "0x3333333333333333333333333333333333333333" }, "payment_asset"],
      [{ payTo: "0x3333333333333333333333333333333333333333" }, "payment_recipient"],
      [{ amount: "10001" }, "payment_amount"],
    ];
    for (const [change, code] of cases) {
      const decoded = decodePaymentSignature(Buffer.from(JSON.stringify({ ...payment, accepted: { ...accepted, ...change } })).toString("base64"));
      expect(v1PayloadOf(decoded, requirements)).toMatchObject({ code });
    }
  });

  test("malformed headers: payment_malformed or payment_version, never a crash", () => {
    const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64");
    const cases: Array<[string, string]> = [
      ["", "payment_malformed"],
      ["***", "payment_malformed"],
      [b64("not json"), "payment_malformed"],
      [b64([1, 2]), "payment_malformed"],
      [b64({ ...payment, x402Version: 1 }), "payment_version"],
      [b64({ ...payment, accepted: undefined }), "payment_malformed"],
      [b64({ ...payment, accepted: { ...accepted, amount: 10000 } }), "payment_malformed"],
      [b64({ ...payment, payload: { signature } }), "payment_malformed"],
      [b64({ ...payment, payload: { signature, authorization: { ...authorization, value: "1e4" } } }), "payment_malformed"],
      ["A".repeat(20_000), "payment_malformed"],
    ];
    for (const [header, code] of cases) {
      let error: unknown;
      try {
        decodePaymentSignature(header);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(PaymentHeaderError);
      expect((error as PaymentHeaderError).code).toBe(code as PaymentHeaderError["code"]);
    }
  });
});
