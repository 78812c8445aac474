// A facilitator inside the process: verifies against an RPC node and settles by submitting
// EIP-3009 transferWithAuthorization from its own gas account. For operators who run their own node
// (or no third party), and for the test chain. Reasons are x402 ErrorReasons strings.
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  ExecutionRevertedError,
  HttpRequestError,
  nonceManager,
  SocketClosedError,
  TimeoutError,
  WaitForTransactionReceiptTimeoutError,
  http,
  type Hex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { checkPayment, type CheckCode } from "./checks.ts";
import { authorizationMessage, eip3009Abi, splitSignature } from "./eip3009.ts";
import {
  FacilitatorUnavailableError,
  type Facilitator,
  type FacilitatorOperation,
  type SettleResult,
  type VerifyResult,
} from "./facilitator.ts";
import { BASE_CHAIN_ID, NETWORK, SCHEME, X402_VERSION, type PaymentPayload, type PaymentRequirements } from "./wire.ts";

export interface EmbeddedFacilitatorOptions {
  rpcUrl: string;
  /** Pays the gas of settlements; holds ETH only, never receives payments. */
  gasPrivateKey: Hex;
  /** Chain id the node must report; `base` is 8453 (a local anvil is started with it too). */
  chainId?: number;
  rpcTimeoutMs?: number;
  receiptTimeoutMs?: number;
}

const CHECK_REASONS: Record<CheckCode, string> = {
  payment_version: "invalid_x402_version",
  payment_scheme: "unsupported_scheme",
  payment_network: "invalid_network",
  payment_malformed: "invalid_payload",
  payment_signature_malformed: "invalid_exact_evm_payload_signature",
  payment_nonce_malformed: "invalid_payload",
  payment_recipient: "invalid_exact_evm_payload_recipient_mismatch",
  payment_amount: "invalid_exact_evm_payload_authorization_value",
  payment_not_yet_valid: "invalid_exact_evm_payload_authorization_valid_after",
  payment_expired: "invalid_exact_evm_payload_authorization_valid_before",
  payment_window_too_long: "invalid_exact_evm_payload_authorization_valid_before",
  payment_invalid_signature: "invalid_exact_evm_payload_signature",
};

// Revert strings of FiatTokenV2 (USDC) and of the test token, which copies them.
const REVERT_REASONS: Array<[RegExp, string]> = [
  [/not yet valid/i, "invalid_exact_evm_payload_authorization_valid_after"],
  [/expired/i, "invalid_exact_evm_payload_authorization_valid_before"],
  [/used or canceled/i, "duplicate_settlement"],
  [/invalid signature/i, "invalid_exact_evm_payload_signature"],
  [/exceeds balance/i, "insufficient_funds"],
];

export function createEmbeddedFacilitator(options: EmbeddedFacilitatorOptions): Facilitator {
  const chainId = options.chainId ?? BASE_CHAIN_ID;
  const chain = defineChain({
    id: chainId,
    name: NETWORK,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const transport = http(options.rpcUrl, { timeout: options.rpcTimeoutMs ?? 10_000, retryCount: 1 });
  // nonceManager: concurrent settlements from one gas account must not reuse a transaction nonce.
  const account = privateKeyToAccount(options.gasPrivateKey, { nonceManager });
  const reader = createPublicClient({ chain, transport });
  const writer = createWalletClient({ chain, transport, account });
  let chainChecked: Promise<void> | undefined;

  // A node on another chain would make every signature look invalid: say so instead.
  function ensureChain(operation: FacilitatorOperation): Promise<void> {
    chainChecked ??= reader.getChainId().then((actual) => {
      if (actual !== chainId) throw new Error(`RPC node is on chain ${actual}, expected ${chainId}`);
    });
    return chainChecked.catch((error: unknown) => {
      chainChecked = undefined;
      throw new FacilitatorUnavailableError(operation, messageOf(error), { cause: error });
    });
  }

  /** Off-chain checks, then the chain's view: balance, nonce unused, and a dry run of the transfer. */
  async function check(payload: PaymentPayload, requirements: PaymentRequirements, minRemainingSeconds: number) {
    const local = await checkPayment(payload, requirements, Date.now() / 1000, { minRemainingSeconds });
    if (!local.ok) return invalid(CHECK_REASONS[local.code], payload.payload?.authorization?.from);
    const m = authorizationMessage(payload.payload.authorization);
    const token = requirements.asset as Hex;
    const balance = await reader.readContract({ address: token, abi: eip3009Abi, functionName: "balanceOf", args: [local.payer] });
    if (balance < local.value) return invalid("insufficient_funds", local.payer);
    const used = await reader.readContract({
      address: token,
      abi: eip3009Abi,
      functionName: "authorizationState",
      args: [local.payer, local.nonce],
    });
    if (used) return invalid("duplicate_settlement", local.payer);
    const { v, r, s } = splitSignature(payload.payload.signature as Hex);
    const args = [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, v, r, s] as const;
    try {
      await reader.simulateContract({ account, address: token, abi: eip3009Abi, functionName: "transferWithAuthorization", args });
    } catch (error) {
      const reason = revertReason(error);
      if (reason === undefined) throw error;
      return invalid(reason, local.payer);
    }
    return { isValid: true as const, payer: local.payer, token, args };
  }

  return {
    async supported() {
      return [{ x402Version: X402_VERSION, scheme: SCHEME, network: NETWORK }];
    },

    async verify(payload, requirements): Promise<VerifyResult> {
      await ensureChain("verify");
      const result = await rpc("verify", () => check(payload, requirements, 6));
      return result.isValid ? { isValid: true, payer: result.payer } : result;
    },

    async settle(payload, requirements): Promise<SettleResult> {
      await ensureChain("settle");
      // Re-verified because settle comes after the job; the chain only needs validBefore > block time.
      const result = await rpc("settle", () => check(payload, requirements, 0));
      if (!result.isValid) {
        return { success: false, errorReason: result.invalidReason, transaction: "", network: NETWORK, ...payer(result.payer) };
      }
      let hash: Hex;
      try {
        hash = await writer.writeContract({ address: result.token, abi: eip3009Abi, functionName: "transferWithAuthorization", args: result.args });
      } catch (error) {
        const reason = revertReason(error); // lost a race with another settlement of the same nonce, say
        if (reason === undefined) throw unavailable("settle", error);
        return { success: false, errorReason: reason, transaction: "", network: NETWORK, payer: result.payer };
      }
      const receipt = await rpc("settle", () =>
        reader.waitForTransactionReceipt({ hash, timeout: options.receiptTimeoutMs ?? 60_000 }),
      );
      if (receipt.status !== "success") {
        return { success: false, errorReason: "invalid_transaction_state", transaction: hash, network: NETWORK, payer: result.payer };
      }
      return { success: true, transaction: hash, network: NETWORK, payer: result.payer };
    },
  };
}

function invalid(invalidReason: string, from: string | undefined) {
  return { isValid: false as const, invalidReason, ...payer(from) };
}

function payer(from: string | undefined): { payer?: string } {
  return typeof from === "string" ? { payer: from } : {};
}

/** Transport trouble becomes FacilitatorUnavailableError; anything else is a bug and propagates. */
async function rpc<T>(operation: FacilitatorOperation, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isTransportError(error)) throw unavailable(operation, error);
    throw error;
  }
}

function unavailable(operation: FacilitatorOperation, error: unknown) {
  return error instanceof FacilitatorUnavailableError
    ? error
    : new FacilitatorUnavailableError(operation, messageOf(error), { cause: error });
}

function isTransportError(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return Boolean(
    error.walk(
      (e) =>
        e instanceof HttpRequestError ||
        e instanceof TimeoutError ||
        e instanceof SocketClosedError ||
        e instanceof WaitForTransactionReceiptTimeoutError,
    ),
  );
}

/** The x402 reason for a contract revert, or undefined if the error is not a revert. */
function revertReason(error: unknown): string | undefined {
  if (!(error instanceof BaseError) || isTransportError(error)) return undefined;
  // Only a revert is a verdict on the payment; e.g. a gas account out of ETH is the facilitator's problem.
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ExecutionRevertedError);
  if (!reverted) return undefined;
  const text = reverted instanceof ContractFunctionRevertedError ? (reverted.reason ?? error.message) : error.message;
  for (const [pattern, reason] of REVERT_REASONS) if (pattern.test(text)) return reason;
  return "invalid_payment";
}

function messageOf(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage;
  return error instanceof Error ? error.message : String(error);
}
