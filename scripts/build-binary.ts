// Builds dist/brainbox: one executable with the server, migrations, web page and native addons inside.
// `bun build --compile` cannot follow a native addon loaded by a computed require, so the plugin below
// rewrites those requires into static ones that the bundler embeds (DESIGN.md "Single executable").
import type { BunPlugin } from "bun";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const target = `${process.platform}-${process.arch === "arm64" ? "arm64" : "x64"}-gnu`;

const ortArch = `${process.platform}/${process.arch}`;

/** Replaces `from` with `to` in one file of a package, failing loudly if the package changed. */
function rewrite(filter: RegExp, from: string, to: string, loader: "js" = "js"): Parameters<BunPlugin["setup"]>[0] extends infer B ? (build: B & { onLoad: Function }) => void : never {
  return (build) =>
    build.onLoad({ filter }, async ({ path }: { path: string }) => {
      const source = await Bun.file(path).text();
      if (!source.includes(from)) throw new Error(`${path} changed (no "${from}"): update scripts/build-binary.ts`);
      return { contents: source.replace(from, to), loader };
    });
}

/** A zstd copy of `path` in the temp dir, named by its content hash (built once per library version). */
function compressedCopy(path: string): string {
  const bytes = readFileSync(path);
  const dir = join(tmpdir(), "brainbox-build");
  const target = join(dir, `${Bun.hash(bytes).toString(36)}-libonnxruntime.so.1.zst`);
  if (!existsSync(target)) {
    mkdirSync(dir, { recursive: true });
    const temp = `${target}.${process.pid}`;
    writeFileSync(temp, Bun.zstdCompressSync(bytes, { level: 9 }));
    renameSync(temp, target);
  }
  return target;
}

const staticNativeAddons: BunPlugin = {
  name: "static-native-addons",
  setup(build) {
    rewrite(/node_modules\/libsql\/index\.js$/, "require(`@libsql/${target}`)", `require("@libsql/${target}/index.node")`)(build);
    // Transformers.js loads onnxruntime-node through createRequire, which the bundler cannot follow.
    rewrite(
      /@huggingface\/transformers\/dist\/transformers\.node\.mjs$/,
      'var onnx_node_default = requireFromHere("onnxruntime-node");',
      'import __ortNode from "onnxruntime-node"; var onnx_node_default = __ortNode;',
    )(build);
    rewrite(
      /onnxruntime-node\/dist\/binding\.js$/,
      "require(`../bin/napi-v6/${process.platform}/${process.arch}/onnxruntime_binding.node`)",
      `require("../bin/napi-v6/${ortArch}/onnxruntime_binding.node")`,
    )(build);
    // The 44 MB onnxruntime library is embedded zstd-compressed (src/ai/ort-native.ts unpacks it once).
    build.onResolve({ filter: /libonnxruntime\.so\.1$/ }, ({ path, importer }) => ({ path: compressedCopy(join(importer, "..", path)) }));
    // One non-ASCII character anywhere in the bundle makes Bun store all of its JavaScript as UTF-16 (twice
    // the size); this licence line, pulled in by satori, is the only one.
    rewrite(/node_modules\/css-background-parser\/index\.js$/, "Copyright \u00a9", "Copyright (c)")(build);
    // sharp (image decoding) is never used for text embeddings; a stub keeps its native build out. OCR
    // decodes every image format in JavaScript but WebP, which fails with the stub's message in the binary.
    build.onResolve({ filter: /^sharp$/ }, () => ({ path: "sharp-stub", namespace: "stub" }));
    build.onLoad({ filter: /.*/, namespace: "stub" }, () => ({
      contents: "export default function sharp() { throw new Error('image input is not supported'); }",
      loader: "js",
    }));
  },
};

// Usage: bun scripts/build-binary.ts [outfile=dist/brainbox] [--sourcemap] [--bytecode]
const args = process.argv.slice(2);
const outfile = args.find((a) => !a.startsWith("--")) ?? "dist/brainbox";
const started = performance.now();
const result = await Bun.build({
  // Worker threads (concept extraction, document reading, checkpoints) are bundled as entrypoints of their own
  // (Bun's rule for workers in an executable).
  entrypoints: ["src/main.ts", "src/concepts/extract-worker.ts", "src/ingest/extract-worker.ts", "src/db/checkpoint-worker.ts", "src/db/snapshot-worker.ts"],
  compile: { outfile },
  target: "bun",
  format: "esm",
  // Precompiled bytecode (`--bytecode`) adds ~16 MB for a faster start; with the large data (the NLP model,
  // the word-frequency table) loaded on first use instead of at start, the plain build starts in ~0.5 s
  // (measured: 140.1 MiB, 478 ms, idle RSS 93 MB; with bytecode 156.6 MiB), so bytecode is opt-in.
  bytecode: args.includes("--bytecode"),
  minify: { syntax: true, whitespace: true },
  // The embedded source map costs ~6 MB; `--sourcemap` puts it back (stack traces with src/ lines).
  sourcemap: args.includes("--sourcemap") ? "linked" : "none",
  plugins: [staticNativeAddons],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const size = Bun.file(outfile).size;
console.log(`built ${outfile} (${(size / 2 ** 20).toFixed(1)} MiB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
