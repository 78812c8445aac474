// Client side of a payment, for tests: X-PAYMENT headers signed with raw viem (every field can be
// bent, before or after signing) or with the reference client x402@1.2.0, as a real buyer would.
import { createWalletClient, http, publicActions, toHex, type Chain, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { createPaymentHeader } from "x402/client";
import { authorizationDomain, transferWithAuthorizationTypes } from "../../../src/pay/eip3009.ts";
import { BASE_CHAIN_ID, type ExactEvmAuthorization, type PaymentPayload, type PaymentRequirements } from "../../../src/pay/wire.ts";

export interface SignOptions {
  privateKey: Hex;
  requirements: PaymentRequirements;
  /** Unix seconds; defaults to the wall clock. */
  now?: number;
  /** Replaces fields of the SIGNED authorization (defaults: what the requirements ask for). */
  authorization?: Partial<ExactEvmAuthorization>;
  /** Replaces fields of the EIP-712 domain signed over (defaults: requirements' token on base). */
  domain?: Partial<{ name: string; version: string; chainId: number; verifyingContract: Hex }>;
  /** Rewrites the payload AFTER signing, e.g. to raise the value the signature covers. */
  tamper?: (payload: PaymentPayload) => PaymentPayload;
}

export function randomNonce(): Hex {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** Signs a TransferWithAuthorization with viem's signTypedData and returns the header and its payload. */
export async function signPayment(options: SignOptions): Promise<{ header: string; payload: PaymentPayload }> {
  const { requirements } = options;
  const account = privateKeyToAccount(options.privateKey);
  const now = Math.floor(options.now ?? Date.now() / 1000);
  const authorization: ExactEvmAuthorization = {
    from: account.address,
    to: requirements.payTo,
    value: requirements.maxAmountRequired,
    // Same defaults as x402's client: 10 minutes of clock tolerance before, maxTimeoutSeconds after.
    validAfter: String(now - 600),
    validBefore: String(now + requirements.maxTimeoutSeconds),
    nonce: randomNonce(),
    ...options.authorization,
  };
  const signature = await account.signTypedData({
    domain: { ...authorizationDomain(requirements, BASE_CHAIN_ID), ...options.domain },
    types: transferWithAuthorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      from: authorization.from as Hex,
      to: authorization.to as Hex,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce as Hex,
    },
  });
  let payload: PaymentPayload = {
    x402Version: 1,
    scheme: requirements.scheme,
    network: requirements.network,
    payload: { signature, authorization },
  };
  if (options.tamper) payload = options.tamper(structuredClone(payload));
  return { header: encodePaymentHeader(payload), payload };
}

/** Base64 JSON, as clients put it in X-PAYMENT (the server only ever decodes). */
export function encodePaymentHeader(payload: unknown): string {
  return Buffer.from(JSON.stringify(payload), "utf8").toString("base64");
}

/** The reference buyer: x402@1.2.0's createPaymentHeader with a viem wallet client on `base` at the anvil RPC. */
export async function x402PaymentHeader(options: {
  privateKey: Hex;
  rpcUrl: string;
  requirements: PaymentRequirements;
}): Promise<string> {
  const chain: Chain = base; // widened: x402 types its signer over a generic Chain, not base's formatters
  const wallet = createWalletClient({
    chain,
    transport: http(options.rpcUrl),
    account: privateKeyToAccount(options.privateKey),
  }).extend(publicActions);
  return createPaymentHeader(wallet, 1, options.requirements);
}
