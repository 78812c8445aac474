// Reads an EIP-3009 token's view of one authorization straight from a node: whether its nonce was used
// (authorizationState) and, if so, the transaction that used it (the AuthorizationUsed event). This is the
// ground truth when a facilitator settled but its reply was lost: the chain, not the facilitator, decides.
import { createPublicClient, decodeEventLog, defineChain, http, parseAbiItem, type Address, type Hex, type Log } from "viem";
import { eip3009Abi } from "./eip3009.ts";
import { BASE_CHAIN_ID, NETWORK } from "./wire.ts";

export interface AuthorizationState {
  used: boolean;
  /** The transaction that used it, when the node still has the log; null otherwise. */
  transaction: Hex | null;
  /**
   * What that use moved: the token's Transfer emitted right after AuthorizationUsed (FiatToken's order).
   * Another authorization signed with the same nonce moves money elsewhere: this tells the two apart.
   * Null when the transaction or its receipt is not known.
   */
  transfer: { from: string; to: string; value: bigint } | null;
}

export interface ChainState {
  authorization(token: string, authorizer: string, nonce: string): Promise<AuthorizationState>;
  /** Latest block's timestamp (unix seconds): when an unused authorization can no longer land. */
  now(): Promise<number>;
}

const authorizationUsed = parseAbiItem("event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)");
const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

export function createChainState(options: { rpcUrl: string; chainId?: number; timeoutMs?: number; logBlockRange?: bigint }): ChainState {
  const chain = defineChain({
    id: options.chainId ?? BASE_CHAIN_ID,
    name: NETWORK,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const reader = createPublicClient({ chain, transport: http(options.rpcUrl, { timeout: options.timeoutMs ?? 10_000, retryCount: 1 }) });
  // Public nodes cap eth_getLogs ranges; an authorization lives minutes, so recent blocks are enough.
  const range = options.logBlockRange ?? 5_000n;

  return {
    async authorization(token, authorizer, nonce) {
      const address = token as Address;
      const used = await reader.readContract({
        address,
        abi: eip3009Abi,
        functionName: "authorizationState",
        args: [authorizer as Address, nonce as Hex],
      });
      if (!used) return { used: false, transaction: null, transfer: null };
      let transaction: Hex | null = null;
      let transfer: AuthorizationState["transfer"] = null;
      try {
        // cacheTime 0: viem caches the block number for seconds, which would miss a transfer just mined.
        const latest = await reader.getBlockNumber({ cacheTime: 0 });
        const logs = await reader.getLogs({
          address,
          event: authorizationUsed,
          args: { authorizer: authorizer as Address, nonce: nonce as Hex },
          fromBlock: latest > range ? latest - range : 0n,
          toBlock: "latest",
        });
        const use = logs.at(-1);
        transaction = use?.transactionHash ?? null;
        if (transaction && use?.logIndex != null) {
          const receipt = await reader.getTransactionReceipt({ hash: transaction });
          transfer = transferAfter(receipt.logs, address, use.logIndex);
        }
      } catch {
        // the state is what matters; the hash and the transfer are for the record and the payee check
      }
      return { used: true, transaction, transfer };
    },
    async now() {
      const block = await reader.getBlock({ blockTag: "latest" });
      return Number(block.timestamp);
    },
  };
}

/** The token's Transfer right after the AuthorizationUsed log at `useIndex`, decoded; null if absent. */
function transferAfter(logs: Log[], token: Address, useIndex: number): AuthorizationState["transfer"] {
  const log = logs.find((l) => l.logIndex === useIndex + 1 && l.address.toLowerCase() === token.toLowerCase());
  if (!log) return null;
  try {
    const { args } = decodeEventLog({ abi: [transferEvent], data: log.data, topics: log.topics, strict: true });
    return { from: args.from, to: args.to, value: args.value };
  } catch {
    return null; // not a Transfer
  }
}
