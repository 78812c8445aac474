import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { loadConfig } from "../../../src/config";
import { lastLine, runCli, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";

const dirs: string[] = [];
const fresh = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("CLI", () => {
  test("--help lists every command and every environment variable", async () => {
    const { code, stdout } = await runCli(["--help"], {});
    expect(code).toBe(0);
    for (const word of ["serve", "migrate", "keys create", "models pull", "BRAINBOX_HOST", "BRAINBOX_PORT", "BRAINBOX_DATA_DIR", "BRAINBOX_PUBLIC_URL", "BRAINBOX_OLLAMA_URL", "BRAINBOX_OLLAMA_MODEL"])
      expect(stdout).toContain(word);
  });

  test("keys create on a brand-new data dir creates the owner and prints the key last, once", async () => {
    const dir = fresh();
    const first = await runCli(["keys", "create", "--name", "laptop"], { BRAINBOX_DATA_DIR: dir });
    expect(first.code).toBe(0);
    const key = lastLine(first.stdout);
    expect(key).toMatch(/^bb_live_\w{43}$/);
    expect(first.stdout.split(key).length).toBe(2);

    // The server then starts on the same dir without printing another owner key, and accepts the CLI's key.
    const server = await spawnServer({ BRAINBOX_DATA_DIR: dir });
    try {
      const res = await fetch(`${server.url}/api/v1/brains`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      // keys create also works while the server runs on the dir.
      const second = await runCli(["keys", "create", "--name", "ci"], { BRAINBOX_DATA_DIR: dir });
      expect(second.code).toBe(0);
      const res2 = await fetch(`${server.url}/api/v1/brains`, { headers: { authorization: `Bearer ${lastLine(second.stdout)}` } });
      expect(res2.status).toBe(200);
    } finally {
      await server.stop();
    }
    expect(server.stdout()).not.toContain("bb_live_");
  });

  test("first start prints exactly one owner key; a restart prints none", async () => {
    const dir = fresh();
    const first = await spawnServer({ BRAINBOX_DATA_DIR: dir });
    await Bun.sleep(100);
    await first.stop();
    const keys = first.stdout().match(/bb_live_\w+/g) ?? [];
    expect(keys).toHaveLength(1);
    const second = await spawnServer({ BRAINBOX_DATA_DIR: dir });
    const res = await fetch(`${second.url}/api/v1/brains`, { headers: { authorization: `Bearer ${keys[0]}` } });
    await second.stop();
    expect(res.status).toBe(200);
    expect(second.stdout()).toBe("");
  });

  test("migrate works on an empty dir and is idempotent", async () => {
    const dir = fresh();
    expect((await runCli(["migrate"], { BRAINBOX_DATA_DIR: dir })).code).toBe(0);
    expect((await runCli(["migrate"], { BRAINBOX_DATA_DIR: dir })).code).toBe(0);
  });

  test.each([
    [["keys", "create"], {}, "--name"],
    [["keys", "list-all"], {}, "keys create"],
    [["frobnicate"], {}, "Unknown command"],
    [["serve", "--bogus"], {}, "bogus"],
    [["serve"], { BRAINBOX_PORT: "abc" }, "BRAINBOX_PORT must be a whole number"],
    [["serve"], { BRAINBOX_PORT: "70000" }, "BRAINBOX_PORT must be between 0 and 65535"],
    [["serve"], { BRAINBOX_PUBLIC_URL: "not a url" }, "BRAINBOX_PUBLIC_URL must be an absolute URL"],
    [["serve"], { BRAINBOX_DEFAULT_PLAN: "gold" }, "BRAINBOX_DEFAULT_PLAN must be one of free, pro, team"],
    [["serve"], { BRAINBOX_PROT: "1" }, "BRAINBOX_PROT is not a known setting"],
  ])("%j with %j fails clearly (exit 2)", async (args, env, message) => {
    const result = await runCli(args, { BRAINBOX_DATA_DIR: fresh(), ...env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain("    at ");
  });

  test("the settings of the import command and the evaluation scripts do not stop the server", () => {
    // The README exports them in a shell that may then run `npm start`.
    const config = loadConfig({ BRAINBOX_API_KEY: "bb_live_x", BRAINBOX_URL: "http://127.0.0.1:9/", BRAINBOX_EVAL_DIR: "/data/eval" });
    expect(config).toMatchObject({ importApiKey: "bb_live_x", importUrl: "http://127.0.0.1:9", evalDir: "/data/eval" });
    expect(() => loadConfig({ BRAINBOX_URL: "ftp://x" })).toThrow("BRAINBOX_URL must be an http(s) URL");
  });

  test("several bad values are reported together", async () => {
    const result = await runCli(["serve"], { BRAINBOX_PORT: "x", BRAINBOX_HOST: "127.0.0.1", BRAINBOX_FREE_BANK: "-1" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("BRAINBOX_PORT");
    expect(result.stderr).toContain("BRAINBOX_FREE_BANK");
  });
});
