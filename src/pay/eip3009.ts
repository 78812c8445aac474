// EIP-3009 (TransferWithAuthorization) pieces shared by the local checks and the embedded facilitator.
import { getAddress, parseSignature, type Hex } from "viem";
import { BASE_CHAIN_ID, type ExactEvmAuthorization, type PaymentRequirements } from "./wire.ts";

export const transferWithAuthorizationTypes = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** The domain the payer signed over: the token named by the requirements, on base. */
export function authorizationDomain(requirements: PaymentRequirements, chainId: number = BASE_CHAIN_ID) {
  return {
    name: requirements.extra.name,
    version: requirements.extra.version,
    chainId,
    verifyingContract: getAddress(requirements.asset.toLowerCase()),
  } as const;
}

/** The typed message as viem wants it; assumes the fields were format-checked. */
export function authorizationMessage(auth: ExactEvmAuthorization) {
  return {
    from: getAddress(auth.from.toLowerCase()),
    to: getAddress(auth.to.toLowerCase()),
    value: BigInt(auth.value),
    validAfter: BigInt(auth.validAfter),
    validBefore: BigInt(auth.validBefore),
    nonce: auth.nonce as Hex,
  };
}

/** v as 27/28 (what ecrecover wants) whether the signer produced 0/1 or 27/28. */
export function splitSignature(signature: Hex): { v: number; r: Hex; s: Hex } {
  const { r, s, v, yParity } = parseSignature(signature);
  return { v: v !== undefined ? Number(v) : 27 + yParity, r, s };
}

/** The subset of a USDC-like token the facilitator calls. */
export const eip3009Abi = [
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "account", type: "address" }],
    outputs: [{ name: "", type: "uint256" }],
  },
  {
    type: "function",
    name: "authorizationState",
    stateMutability: "view",
    inputs: [
      { name: "authorizer", type: "address" },
      { name: "nonce", type: "bytes32" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
  {
    type: "function",
    name: "transferWithAuthorization",
    stateMutability: "nonpayable",
    inputs: [
      { name: "from", type: "address" },
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
      { name: "validAfter", type: "uint256" },
      { name: "validBefore", type: "uint256" },
      { name: "nonce", type: "bytes32" },
      { name: "v", type: "uint8" },
      { name: "r", type: "bytes32" },
      { name: "s", type: "bytes32" },
    ],
    outputs: [],
  },
] as const;
