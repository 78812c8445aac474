// In the compiled binary, onnxruntime's addon is unpacked to a temp file and can no longer find
// libonnxruntime.so.1 beside itself. The library is embedded here and loaded by hand first, so the
// addon's dependency resolves to it. Outside the binary the addon finds it on its own.
// scripts/build-binary.ts embeds it zstd-compressed (44 MB -> ~15 MB of the binary): it is unpacked once
// per version into the temp dir, on the first embedding only.
import { dlopen } from "bun:ffi";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import libPath from "../../node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1" with { type: "file" };

let loaded = false;

/** The embedded library's bytes, decompressed when the build stored it as zstd. */
export function embeddedLibraryBytes(path: string): Uint8Array {
  const stored = readFileSync(path); // copyFile cannot read the embedded fs
  return path.endsWith(".zst") ? Bun.zstdDecompressSync(stored) : stored;
}

export function preloadOrtLibrary(): void {
  if (loaded || !String(libPath).startsWith("/$bunfs/")) return;
  const dir = join(tmpdir(), `brainbox-ort-${Bun.hash(String(libPath)).toString(36)}`);
  const target = join(dir, "libonnxruntime.so.1");
  if (!existsSync(target)) {
    mkdirSync(dir, { recursive: true });
    const temp = `${target}.${process.pid}`;
    writeFileSync(temp, embeddedLibraryBytes(String(libPath)));
    renameSync(temp, target);
  }
  // bun:ffi refuses an empty symbol list; OrtGetApiBase is the library's one entry point.
  dlopen(target, { OrtGetApiBase: { args: [], returns: "ptr" } });
  loaded = true;
}
