import { describe, expect, test } from "bun:test";
import {
  decodePaymentHeader,
  decodePaymentResponse,
  encodePaymentResponse,
  makeRequirements,
  paymentRequiredBody,
  PaymentHeaderError,
  type PaymentPayload,
} from "../../src/pay/wire.ts";
import { encodePaymentHeader } from "../support/chain/sign.ts";

const valid: PaymentPayload = {
  x402Version: 1,
  scheme: "exact",
  network: "base",
  payload: {
    signature: `0x${"11".repeat(65)}`,
    authorization: {
      from: `0x${"aa".repeat(20)}`,
      to: `0x${"bb".repeat(20)}`,
      value: "25000",
      validAfter: "0",
      validBefore: "1900000000",
      nonce: `0x${"cc".repeat(32)}`,
    },
  },
};

function codeOf(header: string): string {
  try {
    decodePaymentHeader(header);
    return "decoded";
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentHeaderError);
    return (error as PaymentHeaderError).code;
  }
}

describe("decodePaymentHeader", () => {
  test("round-trips a well-formed payload, standard or URL-safe base64", () => {
    const header = encodePaymentHeader(valid);
    expect(decodePaymentHeader(header)).toEqual(valid);
    const urlSafe = header.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
    expect(decodePaymentHeader(urlSafe)).toEqual(valid);
  });

  test("malformed base64 is payment_malformed", () => {
    expect(codeOf("")).toBe("payment_malformed");
    expect(codeOf("not base64!")).toBe("payment_malformed");
    expect(codeOf("%%%%")).toBe("payment_malformed");
    expect(codeOf("A")).toBe("payment_malformed");
    expect(codeOf("A".repeat(9000))).toBe("payment_malformed");
  });

  test("base64 of something that is not a JSON object is payment_malformed", () => {
    expect(codeOf(Buffer.from("{not json").toString("base64"))).toBe("payment_malformed");
    expect(codeOf(encodePaymentHeader([1, 2]))).toBe("payment_malformed");
    expect(codeOf(encodePaymentHeader("x"))).toBe("payment_malformed");
    expect(codeOf(encodePaymentHeader(null))).toBe("payment_malformed");
  });

  test("a version other than 1 is payment_version, whatever its shape", () => {
    expect(codeOf(encodePaymentHeader({ ...valid, x402Version: 2 }))).toBe("payment_version");
    expect(codeOf(encodePaymentHeader({ x402Version: 2, accepted: {}, payload: {} }))).toBe("payment_version");
    expect(codeOf(encodePaymentHeader({ ...valid, x402Version: "1" }))).toBe("payment_version");
    expect(codeOf(encodePaymentHeader({ ...valid, x402Version: undefined }))).toBe("payment_version");
  });

  test("a v1 payload with missing or mistyped fields is payment_malformed", () => {
    const broken = [
      { ...valid, scheme: 1 },
      { ...valid, network: undefined },
      { ...valid, payload: "x" },
      { ...valid, payload: { ...valid.payload, signature: undefined } },
      { ...valid, payload: { ...valid.payload, authorization: null } },
      { ...valid, payload: { ...valid.payload, authorization: { ...valid.payload.authorization, nonce: 5 } } },
      { ...valid, payload: { ...valid.payload, authorization: { ...valid.payload.authorization, value: 25000 } } },
      { ...valid, payload: { ...valid.payload, authorization: { ...valid.payload.authorization, value: "1e6" } } },
      { ...valid, payload: { ...valid.payload, authorization: { ...valid.payload.authorization, validBefore: "-1" } } },
    ];
    for (const payload of broken) expect(codeOf(encodePaymentHeader(payload))).toBe("payment_malformed");
  });
});

describe("responses and requirements", () => {
  test("X-PAYMENT-RESPONSE is base64 JSON of the settlement", () => {
    const header = encodePaymentResponse({ success: true, transaction: "0xabc", network: "base", payer: "0xdef" });
    expect(JSON.parse(Buffer.from(header, "base64").toString())).toEqual({
      success: true,
      transaction: "0xabc",
      network: "base",
      payer: "0xdef",
    });
    const failed = encodePaymentResponse({ success: false, transaction: "", network: "base", payer: "0xdef", errorReason: "x" });
    expect(decodePaymentResponse(failed).errorReason).toBe("x");
  });

  test("402 body and a requirements entry", () => {
    const accepts = makeRequirements({
      maxAmountRequired: 25_000n,
      asset: `0x${"aa".repeat(20)}`,
      payTo: `0x${"bb".repeat(20)}`,
      resource: "https://kb.example/api/x402/b1/ask",
      description: "Ask brain b1",
      maxTimeoutSeconds: 120,
      extra: { name: "USD Coin", version: "2" },
    });
    expect(paymentRequiredBody("X-PAYMENT header is required", [accepts])).toEqual({
      x402Version: 1,
      error: "X-PAYMENT header is required",
      accepts: [
        {
          scheme: "exact",
          network: "base",
          maxAmountRequired: "25000",
          asset: `0x${"aa".repeat(20)}`,
          payTo: `0x${"bb".repeat(20)}`,
          resource: "https://kb.example/api/x402/b1/ask",
          description: "Ask brain b1",
          mimeType: "application/json",
          maxTimeoutSeconds: 120,
          extra: { name: "USD Coin", version: "2" },
        },
      ],
    });
  });

  test("makeRequirements refuses values a client could not pay", () => {
    const ok = {
      maxAmountRequired: "1",
      asset: `0x${"aa".repeat(20)}`,
      payTo: `0x${"bb".repeat(20)}`,
      resource: "https://kb.example/x",
      description: "d",
      maxTimeoutSeconds: 60,
      extra: { name: "USD Coin", version: "2" },
    };
    expect(() => makeRequirements(ok)).not.toThrow();
    expect(() => makeRequirements({ ...ok, maxAmountRequired: "0" })).toThrow();
    expect(() => makeRequirements({ ...ok, maxAmountRequired: "1.5" })).toThrow();
    expect(() => makeRequirements({ ...ok, resource: "/api/x402/b1/ask" })).toThrow();
    expect(() => makeRequirements({ ...ok, payTo: "0x123" })).toThrow();
    expect(() => makeRequirements({ ...ok, maxTimeoutSeconds: 0 })).toThrow();
  });
});
