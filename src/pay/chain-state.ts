// Reads an EIP-3009 token's view of one authorization straight from a node: whether its nonce was used
// (authorizationState) and, if so, the transaction that used it (the AuthorizationUsed event). This is the
// ground truth when a facilitator settled but its reply was lost: the chain, not the facilitator, decides.
import { createPublicClient, defineChain, http, parseAbiItem, type Address, type Hex } from "viem";
import { eip3009Abi } from "./eip3009.ts";
import { BASE_CHAIN_ID, NETWORK } from "./wire.ts";

export interface AuthorizationState {
  used: boolean;
  /** The transaction that used it, when the node still has the log; null otherwise. */
  transaction: Hex | null;
}

export interface ChainState {
  authorization(token: string, authorizer: string, nonce: string): Promise<AuthorizationState>;
  /** Latest block's timestamp (unix seconds): when an unused authorization can no longer land. */
  now(): Promise<number>;
}

const authorizationUsed = parseAbiItem("event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)");

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
      if (!used) return { used: false, transaction: null };
      let transaction: Hex | null = null;
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
        transaction = logs.at(-1)?.transactionHash ?? null;
      } catch {
        transaction = null; // the state is what matters; the hash is for the record
      }
      return { used: true, transaction };
    },
    async now() {
      const block = await reader.getBlock({ blockTag: "latest" });
      return Number(block.timestamp);
    },
  };
}
