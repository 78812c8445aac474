// onnxruntime-node 1.30 starts a telemetry client unless ORT_DISABLE_TELEMETRY is set in the C environment.
// Transformers.js sets it through process.env, but under Bun writes to process.env never reach getenv()
// (measured), so each process left a device id ($TMPDIR/.ses) and a mat-debug-<pid>.log behind.
import { dlopen } from "bun:ffi";

const LIBC: Partial<Record<NodeJS.Platform, string>> = { linux: "libc.so.6", darwin: "libc.dylib" };

/** Call before onnxruntime-node loads. Best effort: elsewhere the launcher must export ORT_DISABLE_TELEMETRY=1. */
export function disableOrtTelemetry(): void {
  process.env.ORT_DISABLE_TELEMETRY = "1";
  const libcName = LIBC[process.platform];
  if (!libcName) return;
  try {
    const libc = dlopen(libcName, { setenv: { args: ["cstring", "cstring", "i32"], returns: "i32" } });
    libc.symbols.setenv(Buffer.from("ORT_DISABLE_TELEMETRY\0"), Buffer.from("1\0"), 1);
    libc.close();
  } catch {
    // musl or a libc we do not know: nothing to do but the documented environment variable.
  }
}
