// Bun's allocator (mimalloc) gives memory back to the OS once it has been free for a moment (its purge delay),
// and the next allocation faults it in again, zeroed; each give-back also interrupts the process's other
// threads (their address space changed). An import frees and reallocates hundreds of MB a minute (tagging,
// the threads' JSON answers, batch statements). On the import bench to 50k sources, two alternating rounds,
// purging off (MIMALLOC_PURGE_DELAY=-1) took 10-17% less CPU a source (at 20k→50k 4.03 / 4.05 → 3.34 / 3.30
// ms; mimalloc's purge thread and Bun's thread faulting pages back in gone, the main and extraction threads
// ~0.25 ms each cheaper) and ran 466-472 → 565-575 sources/s there. Memory it freed is kept for reuse: RSS
// stays at its peak (1.5-1.6 GiB at the end of a 50k import against 1.2-1.4 GiB with purging). Operators who
// would rather have memory back set MIMALLOC_PURGE_DELAY themselves (mimalloc's unit: ms; Bun's default 100).
// A delay of 2 s or 60 s did not help: only off does.
// mimalloc reads the setting once, at start: `serve` starts itself again with it (execve: the same pid, the
// same open files and signal handling), unless the environment already says.

/** MIMALLOC_PURGE_DELAY for the server: never purge. */
export const SERVER_PURGE_DELAY = "-1";

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

/**
 * Runs this process again with the server's allocator setting when its environment does not set one; returns
 * (doing nothing) when it does, or when the process image cannot be replaced (the server runs on the default).
 */
export function relaunchWithServerAllocator(env: NodeJS.ProcessEnv = process.env): void {
  if (env.MIMALLOC_PURGE_DELAY !== undefined) return;
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (typeof execve !== "function") return;
  try {
    execve.call(process, process.execPath, osArgs(), { ...env, MIMALLOC_PURGE_DELAY: SERVER_PURGE_DELAY });
  } catch {
    // A sandbox that refuses execve, say: serve with the default.
  }
}
