// Runs the CLI (source or built binary) as a real child process.
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "../..");
export const BUN = process.execPath;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], env: Record<string, string>, command = [BUN, join(ROOT, "src/main.ts")]): Promise<CliResult> {
  const proc = Bun.spawn([...command, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Starts `serve` as a child process and waits for its "listening" log line. */
export async function spawnServer(env: Record<string, string>, command = [BUN, join(ROOT, "src/main.ts")]) {
  const proc = Bun.spawn([...command, "serve"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", BRAINBOX_PORT: "0", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const decoder = new TextDecoder();
  let stderr = "";
  let stdout = "";
  const reader = proc.stderr.getReader();
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 30_000);
    (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return reject(new Error(`server exited: ${stderr}`));
        stderr += decoder.decode(value);
        const m = /"msg":"listening","url":"([^"]+)"/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          return resolve(m[1]!);
        }
      }
    })();
  });
  // Keep draining stderr so the child never blocks on a full pipe.
  (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      stderr += decoder.decode(value);
    }
  })();
  const outReader = proc.stdout.getReader();
  const drainOut = (async () => {
    for (;;) {
      const { value, done } = await outReader.read();
      if (done) return;
      stdout += decoder.decode(value);
    }
  })();
  return {
    url,
    proc,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      proc.kill(signal);
      await proc.exited;
      await drainOut;
    },
  };
}

/** The new key a command printed: alone on the last line of stdout. */
export const lastLine = (stdout: string) => stdout.trimEnd().split("\n").at(-1) ?? "";

/** Request headers carrying a key the CLI creates in the data dir `env` names (no server needed). */
export async function cliKeyHeaders(env: Record<string, string>, name: string): Promise<Record<string, string>> {
  const key = lastLine((await runCli(["keys", "create", "--name", name], env)).stdout);
  return { authorization: `Bearer ${key}`, "content-type": "application/json" };
}
