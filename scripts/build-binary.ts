// Builds dist/brainbox: one executable with the server, migrations, web page and native addons inside.
// `bun build --compile` cannot follow a native addon loaded by a computed require, so the plugin below
// rewrites those requires into static ones that the bundler embeds (DESIGN.md "Single executable").
import type { BunPlugin } from "bun";

const target = `${process.platform}-${process.arch === "arm64" ? "arm64" : "x64"}-gnu`;

const staticNativeAddons: BunPlugin = {
  name: "static-native-addons",
  setup(build) {
    build.onLoad({ filter: /node_modules\/libsql\/index\.js$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      const dynamic = "require(`@libsql/${target}`)";
      if (!source.includes(dynamic)) throw new Error("libsql's native require changed: update scripts/build-binary.ts");
      return { contents: source.replace(dynamic, `require("@libsql/${target}/index.node")`), loader: "js" };
    });
  },
};

const outfile = process.argv[2] ?? "dist/brainbox";
const started = performance.now();
const result = await Bun.build({
  entrypoints: ["src/main.ts"],
  compile: { outfile },
  target: "bun",
  minify: { syntax: true, whitespace: true },
  sourcemap: "linked",
  plugins: [staticNativeAddons],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const size = Bun.file(outfile).size;
console.log(`built ${outfile} (${(size / 1e6).toFixed(1)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
