// Compiles token.sol with the solc npm package (wasm) into token.artifact.json {abi, bytecode}.
// The artifact is kept in the repo so tests never load the 8 MB compiler: rerun this only after
// editing token.sol:  node_modules/.bin/bun tests/support/chain/compile-token.ts
import solc from "solc";

const here = import.meta.dir;
const sourceName = "token.sol";
const contractName = "TestUSDC";

interface SolcOutput {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

export async function compileToken(): Promise<{ abi: unknown[]; bytecode: `0x${string}` }> {
  const source = await Bun.file(`${here}/${sourceName}`).text();
  const input = {
    language: "Solidity",
    sources: { [sourceName]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Pinned so the artifact runs on any anvil hardfork from cancun on.
      evmVersion: "cancun",
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const contract = output.contracts?.[sourceName]?.[contractName];
  if (!contract) throw new Error(`solc produced no ${contractName}`);
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

if (import.meta.main) {
  const artifact = await compileToken();
  const path = `${here}/token.artifact.json`;
  await Bun.write(path, JSON.stringify({ compiler: `solc ${solc.version()}`, ...artifact }, null, 2) + "\n");
  console.log(`wrote ${path} (${(artifact.bytecode.length - 2) / 2} bytes of bytecode)`);
}
