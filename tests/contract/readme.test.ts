// The README and docs/, followed as written: their commands name real scripts and CLI commands, the CLI
// example runs through npm after `npm ci` (a CLI child process: tests/e2e/contract/readme-cli.test.ts), the quick start's three curl lines work against a real server
// (real curl), docs/x402.md names every x402 variable, docs/configuration.md is the generated list, the
// README stays a front page, and the install requirements match package.json.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ENV_VARS } from "../../src/config";
import { configurationPage } from "../../scripts/docs-configuration";
import { ROOT, runCli } from "../support/cli";
import { startTestServer, tempDir, type TestServer } from "../support/server";
import { waitForSource } from "../support/sources";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const docNames = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md"));
const docs = docNames.map((f) => readFileSync(join(ROOT, "docs", f), "utf8"));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const shBlocks = (text: string) => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const codeBlocks = shBlocks(readme);
/** Every shell line of the README and docs/: lines of ```sh blocks and inline `code` spans. */
const shellLines = [readme, ...docs]
  .flatMap((text) => [...shBlocks(text).flatMap((b) => b.split("\n")), ...[...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!)])
  .map((l) => l.trim())
  .filter(Boolean);
const section = (heading: string) => {
  const start = readme.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  const next = readme.slice(start + heading.length).search(/\n#{2,3} /);
  return readme.slice(start, next < 0 ? undefined : start + heading.length + next);
};

let help = "";
beforeAll(async () => {
  help = (await runCli(["--help"], {})).stdout;
});

describe("README commands", () => {
  test("every npm script, CLI command and script file it names exists, and none needs a global bun", () => {
    const npmRuns = shellLines.flatMap((l) => [...l.matchAll(/npm run (?:-s )?([\w:-]+)/g)].map((m) => m[1]!));
    expect(npmRuns).toContain("brainbox");
    for (const name of npmRuns) expect({ name, exists: name in pkg.scripts }).toEqual({ name, exists: true });
    // CLI calls in code (`npm run -s brainbox -- keys create`, `brainbox models pull`, …) and the Commands table's rows.
    const inCode = shellLines.flatMap((l) => [...l.matchAll(/(?:npm run (?:-s )?brainbox --|npx bun src\/main\.ts|brainbox) ([a-z]+(?: [a-z]+)?)/g)].map((m) => m[1]!));
    const inTable = [...section("## Commands").matchAll(/^\| `([a-z]+(?: [a-z]+)?)/gm)].map((m) => m[1]!);
    expect(inTable.length).toBeGreaterThanOrEqual(6);
    for (const call of [...inCode, ...inTable].filter((c) => c !== "command")) {
      const listed = help.includes(`  ${call} `) || help.includes(`  ${call}\n`) || (call.split(" ").length === 2 && help.includes(`  ${call.split(" ")[0]} `));
      expect({ call, listed }).toEqual({ call, listed: true });
    }
    for (const file of shellLines.flatMap((l) => [...l.matchAll(/npx bun (scripts\/[\w.-]+\.ts)/g)].map((m) => m[1]!)))
      expect({ file, exists: existsSync(join(ROOT, file)) }).toEqual({ file, exists: true });
    // `bun …` alone fails after `npm ci` (Bun is a dependency, not on PATH): only npx/npm run forms.
    expect(shellLines.filter((l) => /^bun /.test(l))).toEqual([]);
  });
});

describe("README quick start", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  test("its three curl lines (create a brain, add a source, ask) work as written, right under the two commands", async () => {
    const quick = codeBlocks[1]!;
    expect(readme.indexOf(codeBlocks[0]!)).toBeLessThan(readme.indexOf(quick));
    expect(codeBlocks[0]).toContain("npm ci && npm start");
    const curls = quick.split("\n").filter((l) => l.startsWith("curl "));
    expect(curls).toHaveLength(3);
    const port = new URL(s.url).port;
    const run = async (line: string, env: Record<string, string>) => {
      const proc = Bun.spawn(["bash", "-c", line.replaceAll("localhost:8080", `127.0.0.1:${port}`)], { env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe" });
      const out = await new Response(proc.stdout).text();
      expect(await proc.exited).toBe(0);
      return JSON.parse(out);
    };
    const made = await run(curls[0]!, { KEY: s.key });
    expect(made.brain.id).toStartWith("brn_");
    const env = { KEY: s.key, BRAIN: made.brain.id };
    const added = await run(curls[1]!, env);
    expect(added.created).toBe(true);
    expect((await waitForSource(s, made.brain.id, added.source.id)).status).toBe("ready");
    const answer = await run(curls[2]!, env);
    expect(answer.thin).toBe(false);
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(answer.answer.toLowerCase()).toContain("moon");
  });

  test("it says where the MCP endpoint and the OAuth token prefix are documented, and those files exist", () => {
    const top = readme.slice(0, readme.indexOf("## Commands"));
    expect(top).toContain("/mcp");
    expect(top).toContain("bb_at_");
    for (const file of ["src/modules/mcp/README.md", "src/modules/oauth/README.md"]) {
      expect(top).toContain(file);
      expect(existsSync(join(ROOT, file))).toBe(true);
    }
  });
});

describe("README, docs, install and x402", () => {
  test("the README is a front page: at most 300 lines, every docs/ page it links exists and every page is linked", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
    const linked = [...readme.matchAll(/\]\((docs\/[\w.-]+\.md)\)/g)].map((m) => m[1]!);
    for (const file of linked) expect({ file, exists: existsSync(join(ROOT, file)) }).toEqual({ file, exists: true });
    for (const name of docNames) expect({ name, linked: linked.includes(`docs/${name}`) }).toEqual({ name, linked: true });
  });

  test("every relative link in docs/ points at a file that exists", () => {
    docNames.forEach((name, i) => {
      for (const [, target] of docs[i]!.matchAll(/\]\(((?:\.\.\/)?[\w./-]+?)(?:#[\w-]*)?\)/g)) {
        if (!/[./]/.test(target!)) continue; // a placeholder such as `[title](url)` in a shape

        const file = join(ROOT, "docs", target!);
        expect({ name, target, exists: existsSync(file) }).toEqual({ name, target, exists: true });
      }
    });
  });

  test("docs/configuration.md is the list the server reads, as the script writes it", () => {
    expect(readFileSync(join(ROOT, "docs", "configuration.md"), "utf8")).toBe(configurationPage());
  });

  test("docs/x402.md names every x402 variable the server reads", () => {
    const x402 = readFileSync(join(ROOT, "docs", "x402.md"), "utf8");
    const names = ENV_VARS.map((e) => e.name).filter((n) => n.startsWith("BRAINBOX_X402_"));
    expect(names).toContain("BRAINBOX_X402_PAY_TO");
    for (const name of names) expect({ name, documented: x402.includes(name) }).toEqual({ name, documented: true });
  });

  test("the install requirements match package.json's engines", () => {
    const node = /^>=(\d+)/.exec(pkg.engines.node)![1];
    const npm = /^>=(\d+)/.exec(pkg.engines.npm)![1];
    const requirements = readme.slice(readme.indexOf("**Install requirements**"), readme.indexOf("## Commands"));
    expect(requirements).toContain(`Node.js ≥ ${node}`);
    expect(requirements).toContain(`npm ≥ ${npm}`);
  });

  test("npm reads the project's config without warnings, and onnxruntime-node's install script stays off", async () => {
    const proc = Bun.spawn(["npm", "config", "get", "registry"], { cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: tempDir("brainbox-npm-home-") }, stderr: "pipe", stdout: "pipe" });
    const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(0);
    expect(err).not.toContain("Unknown project config");
    expect(pkg.allowScripts["onnxruntime-node"]).toBe(false);
    expect(readFileSync(join(ROOT, ".ci/run"), "utf8")).toContain("ONNXRUNTIME_NODE_INSTALL=skip npm ci");
  });
});
