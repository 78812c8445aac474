// The engine settings an operator gave this process (JavaScriptCore's BUN_JSC_*, the allocator's MIMALLOC_*),
// for a benchmark's header: Brainbox sets none itself, so a figure says which runtime it was measured on.
export function runtimeEnvLine(env: NodeJS.ProcessEnv = process.env): string {
  const given = Object.keys(env).filter((name) => name.startsWith("BUN_JSC_") || name.startsWith("MIMALLOC_")).sort();
  return `runtime: ${given.length ? given.map((name) => `${name}=${env[name]}`).join(" ") : "Bun's defaults"}`;
}
