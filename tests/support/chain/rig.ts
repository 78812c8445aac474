// A real local chain for payment tests: anvil on a loopback port with base's chain id (8453, so
// clients sign for `base` unchanged), the EIP-3009 test token deployed, and a payer holding USDC
// but no ETH, exactly like an x402 client wallet.
import { dirname, join } from "node:path";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  type Abi,
  type Address,
  type Hex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import artifact from "./token.artifact.json";

export const CHAIN_ID = 8453;
export const TOKEN_NAME = "USD Coin";
export const TOKEN_VERSION = "2";
/** 1 000 USDC in atomic units (6 decimals). */
export const PAYER_FUNDS = 1_000_000_000n;

export interface Account {
  privateKey: Hex;
  address: Address;
}

export interface ChainRig {
  rpcUrl: string;
  token: Address;
  payer: Account;
  payTo: Address;
  /** Funded with ETH only: what a facilitator pays gas with. */
  gasKey: Hex;
  balanceOf(address: string): Promise<bigint>;
  ethBalanceOf(address: string): Promise<bigint>;
  /** A fresh account holding `usdc` atomic units of the token and no ETH. */
  newPayer(usdc: bigint): Promise<Account>;
  /** Moves chain time forward (and mines a block): for on-chain expiry. Cannot be undone. */
  advanceTime(seconds: number): Promise<void>;
  stop(): Promise<void>;
}

const tokenAbi = artifact.abi as Abi;

export function newAccount(): Account {
  const privateKey = generatePrivateKey();
  return { privateKey, address: privateKeyToAccount(privateKey).address };
}

export async function startChainRig(): Promise<ChainRig> {
  const anvil = await startAnvil();
  try {
    return await deploy(anvil.rpcUrl, anvil.stop);
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

async function deploy(rpcUrl: string, stopAnvil: () => Promise<void>): Promise<ChainRig> {
  const chain = { ...base, rpcUrls: { default: { http: [rpcUrl] } } };
  const transport = http(rpcUrl);
  const reader = createPublicClient({ chain, transport });
  const admin = createTestClient({ chain, transport, mode: "anvil" });
  // Fresh keys, funded through anvil_setBalance: no well-known dev keys, no default accounts.
  const deployer = newAccount();
  const gas = newAccount();
  await admin.setBalance({ address: deployer.address, value: parseEther("100") });
  await admin.setBalance({ address: gas.address, value: parseEther("100") });
  const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(deployer.privateKey) });

  const deployHash = await wallet.deployContract({ abi: tokenAbi, bytecode: artifact.bytecode as Hex });
  const { contractAddress } = await reader.waitForTransactionReceipt({ hash: deployHash });
  if (!contractAddress) throw new Error("token deployment produced no contract");
  const token = contractAddress;

  async function mint(to: Address, amount: bigint) {
    const hash = await wallet.writeContract({ address: token, abi: tokenAbi, functionName: "mint", args: [to, amount] });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error("mint reverted");
  }
  async function newPayer(usdc: bigint) {
    const account = newAccount();
    if (usdc > 0n) await mint(account.address, usdc);
    return account;
  }

  const payer = await newPayer(PAYER_FUNDS);
  const payTo = newAccount().address;
  return {
    rpcUrl,
    token,
    payer,
    payTo,
    gasKey: gas.privateKey,
    balanceOf: async (address) =>
      (await reader.readContract({ address: token, abi: tokenAbi, functionName: "balanceOf", args: [address] })) as bigint,
    ethBalanceOf: (address) => reader.getBalance({ address: address as Address }),
    newPayer,
    advanceTime: async (seconds) => {
      await admin.increaseTime({ seconds });
      await admin.mine({ blocks: 1 });
    },
    stop: stopAnvil,
  };
}

function anvilBinary(): string {
  if (process.env.ANVIL_BIN) return process.env.ANVIL_BIN;
  // The platform package's binary directly: the node_modules/.bin/anvil wrapper costs a node start.
  const pkg = Bun.resolveSync("@foundry-rs/anvil-linux-amd64/package.json", import.meta.dir);
  return join(dirname(pkg), "bin", "anvil");
}

/** Starts anvil on a port the OS picks (--port 0) and resolves once its RPC answers with chain 8453. */
export async function startAnvil(): Promise<{ rpcUrl: string; stop(): Promise<void> }> {
  const proc = Bun.spawn(
    [anvilBinary(), "--host", "127.0.0.1", "--port", "0", "--chain-id", String(CHAIN_ID), "--accounts", "0"],
    { stdout: "pipe", stderr: "inherit" }, // stderr is quiet unless anvil fails
  );
  // If a test file dies before afterAll, do not leave the node running.
  const killOnExit = () => proc.kill();
  process.once("exit", killOnExit);
  const stop = async () => {
    process.off("exit", killOnExit);
    proc.kill();
    await proc.exited;
  };
  try {
    const port = await readListeningPort(proc.stdout, 10_000);
    const rpcUrl = `http://127.0.0.1:${port}`;
    await waitForChainId(rpcUrl, 5_000);
    return { rpcUrl, stop };
  } catch (error) {
    await stop();
    throw new Error(`anvil did not start: ${error instanceof Error ? error.message : error}`);
  }
}

async function readListeningPort(stdout: ReadableStream<Uint8Array>, timeoutMs: number): Promise<number> {
  const reader = stdout.getReader();
  const decoder = new TextDecoder();
  const deadline = setTimeout(() => void reader.cancel("timeout"), timeoutMs);
  let seen = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`anvil exited or timed out; output: ${seen.slice(-500)}`);
      seen += decoder.decode(value, { stream: true });
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(seen);
      if (match?.[1]) {
        // Keep draining so anvil never blocks on a full stdout pipe.
        void (async () => {
          while (!(await reader.read().catch(() => ({ done: true }))).done);
        })();
        return Number(match[1]);
      }
    }
  } finally {
    clearTimeout(deadline);
  }
}

async function waitForChainId(rpcUrl: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      const { result } = (await response.json()) as { result?: string };
      if (result !== undefined && Number(result) === CHAIN_ID) return;
      if (result !== undefined) throw new Error(`anvil reports chain ${Number(result)}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("anvil reports")) throw error;
    }
    if (Date.now() > until) throw new Error("RPC did not answer");
    await Bun.sleep(10);
  }
}
