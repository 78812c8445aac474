// Runtime settings `serve` runs with, each read by the runtime once, at start: so `serve` starts itself again
// with them (execve: the same pid, the same open files and signal handling) unless the environment already
// gives every one of them; a value the environment gives is kept (an operator's way back to the default).
//
// MIMALLOC_PURGE_DELAY=-1: Bun's allocator (mimalloc) gives memory back to the OS once it has been free for a
// moment (its purge delay), and the next allocation faults it in again, zeroed; each give-back also interrupts
// the process's other threads (their address space changed). An import frees and reallocates hundreds of MB
// a minute (tagging, the threads' JSON answers, batch statements). On the import bench to 50k sources, two
// alternating rounds, purging off took 10-17% less CPU a source (at 20k→50k 4.03 / 4.05 → 3.34 / 3.30 ms;
// mimalloc's purge thread and Bun's thread faulting pages back in gone) and ran 466-472 → 565-575 sources/s
// there. Memory it freed is kept for reuse: RSS stays at its peak (1.5-1.6 GiB at the end of a 50k import
// against 1.2-1.4 GiB with purging; Bun's default is 100 ms). A delay of 2 s or 60 s did not help: only off does.
//
// BUN_JSC_thresholdForFTLOptimize*: JavaScriptCore's last tier (FTL) compiles a hot function once more, on a
// JIT thread that shares the 2 cores with the import. At 16x/10x the default thresholds (64,000 / 1,000) only
// what stays hottest gets there. On the import bench (to 50k sources, asks on, alternating rounds in one hour,
// ready rates 0→1k / 1k→5k / 5k→20k / 20k→50k): defaults 554 / 732 / 681 / 526 and 411 / 590 / 585 / 488,
// these 621 / 671 / 593 / 546 and 602 / 753 / 654 / 582 sources/s; the whole process's CPU a source at 0→1k
// 3.08 / 4.38 → 2.89 / 2.82 ms, at 20k→50k 3.67 / 3.95 → 3.53 / 3.34 (tagging 500 abstracts cold: the JIT
// thread 160-250 → 60-90 ms). FTL off altogether did as well for the import but made the vector search 50%
// slower (100k vectors: 4.2 → 6.3 ms a query); with these thresholds it is as fast once warm (4.1-4.3 ms).

/** What `serve` sets in its environment when the environment does not. */
export const SERVER_RUNTIME: Readonly<Record<string, string>> = {
  MIMALLOC_PURGE_DELAY: "-1",
  BUN_JSC_thresholdForFTLOptimizeAfterWarmUp: "1000000",
  BUN_JSC_thresholdForFTLOptimizeSoon: "10000",
};

/** The settings as this process runs with them ("NAME=value ...", unset ones as undefined): for benchmarks' headers. */
export const serverRuntimeLine = (env: NodeJS.ProcessEnv = process.env) => Object.keys(SERVER_RUNTIME).map((name) => `${name}=${env[name]}`).join(" ");

/** The command line as the OS gave it: a compiled binary's argv[1] is its own entry inside the executable. */
export function osArgs(argv = process.argv, execPath = process.execPath, execArgv = process.execArgv): string[] {
  const compiled = argv[1]?.startsWith("/$bunfs/") ?? false;
  return [execPath, ...execArgv, ...argv.slice(compiled ? 2 : 1)];
}

/** Whether command-line `args` (after the program) run the server: `serve`, or no command at all. */
export function servesHttp(args: string[]): boolean {
  if (args.some((a) => a === "--help" || a === "-h" || a === "--version")) return false;
  const command = args.find((a) => !a.startsWith("-"));
  return command === undefined || command === "serve";
}

/** The environment to start again with, or null when it already gives every server setting. */
export function serverEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv | null {
  const missing = Object.entries(SERVER_RUNTIME).filter(([name]) => env[name] === undefined);
  return missing.length === 0 ? null : { ...env, ...Object.fromEntries(missing) };
}

/**
 * Runs this process again with the server's runtime settings when its environment lacks one; returns (doing
 * nothing) when it has them all, or when the process image cannot be replaced (the server runs on defaults).
 */
export function relaunchWithServerRuntime(env: NodeJS.ProcessEnv = process.env): void {
  const next = serverEnvironment(env);
  if (!next) return;
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (typeof execve !== "function") return;
  try {
    execve.call(process, process.execPath, osArgs(), next);
  } catch {
    // A sandbox that refuses execve, say: serve with the defaults.
  }
}
