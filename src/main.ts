#!/usr/bin/env bun
// The brainbox command line: serve (default), migrate, keys create, models pull, backup, restore. Every
// command but backup and restore migrates first, so any of them works on a brand-new data dir, also while
// a server runs on it (backup reads the data dir as it is; restore writes only into an empty one).
import { parseArgs } from "node:util";
import { ConfigError, ENV_VARS, loadConfig, PLANS, type Config, type PlanId } from "./config";
import { migrate, openDatabase } from "./db/client";
import { AppError } from "./lib/errors";
import { createLogger } from "./lib/log";
import { createOwnerKey } from "./modules/accounts/bootstrap";
import { startServer } from "./runtime";
import { VERSION } from "./version";
import { IMPORT_OPTIONS } from "./import/options";

const COMMANDS: Array<[string, string]> = [
  ["serve", "Start the HTTP server and the background job loop (default)"],
  ["migrate", "Apply database migrations and exit"],
  ["keys create --name NAME", "Create an API key for the owner (creating the owner on an empty database); prints the key on the last line"],
  ["accounts create --name NAME [--plan PLAN] [--email EMAIL]", "Create an account (plan free|pro|team, default BRAINBOX_DEFAULT_PLAN; the email lets it accept invitations); prints its first API key on the last line"],
  ["accounts list", "List accounts with their plans"],
  ["accounts plan ACCOUNT_ID PLAN", "Change an account's plan"],
  ["users set-password --email EMAIL [--account ACCOUNT_ID]", "Set a person's password, read from stdin (first line); with --account, also give that account the email"],
  ["users reset-link --email EMAIL", "Print a one-time link where the person with this email sets a new password"],
  ["models pull MODEL_ID", "Download an embedding model (ONNX + tokenizer) into BRAINBOX_MODELS_DIR"],
  ["backup PATH", "Write a consistent backup (database, uploads, manifest with checksums) of BRAINBOX_DATA_DIR to the tar file PATH (a folder: a new file in it), also while a server runs on it"],
  ["restore PATH", "Restore a backup archive into BRAINBOX_DATA_DIR, which must be empty or absent; refuses a damaged archive or a newer schema"],
  ["import PATH --brain ID [--url URL] [--key KEY] [--force] [--sync]", "Add a folder of files (PDF, DOCX, HTML, Markdown, text; recursive) to a brain through a running server (URL default BRAINBOX_URL, else http://127.0.0.1:BRAINBOX_PORT; key default BRAINBOX_API_KEY); unchanged files are skipped; --sync also removes the sources of files deleted from the folder since an earlier import"],
  ["import --vault PATH --brain ID [--url URL] [--key KEY]", "Import an Obsidian vault (a folder or a zip) into a brain through a running server: each note a page, titles and [[links]] kept"],
];

function help(): string {
  const width = Math.max(...COMMANDS.map(([c]) => c.length)) + 2;
  const envWidth = Math.max(...ENV_VARS.map((e) => e.name.length)) + 2;
  return [
    `brainbox ${VERSION}: knowledge-base question answering in one binary`,
    "",
    "Usage: brainbox [command] [options]",
    "",
    "Commands:",
    ...COMMANDS.map(([c, d]) => `  ${c.padEnd(width)}${d}`),
    "",
    "Options:",
    "  --help, -h      Show this help",
    "  --version       Print the version",
    "",
    "Environment:",
    ...ENV_VARS.map((e) => `  ${e.name.padEnd(envWidth)}${e.help}${e.default !== undefined && e.default !== "" ? ` (default: ${e.default})` : ""}`),
  ].join("\n");
}

async function withDatabase<T>(config: Config, fn: (db: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> {
  const database = openDatabase({ dataDir: config.dataDir, url: config.databaseUrl, authToken: config.databaseAuthToken, remoteTimeoutMs: config.databaseTimeoutMs });
  try {
    await migrate(database.client);
    return await fn(database);
  } finally {
    database.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
      name: { type: "string" },
      plan: { type: "string" },
      email: { type: "string" },
      account: { type: "string" },
      ...IMPORT_OPTIONS,
    },
  });
  if (values.help) return console.log(help()), 0;
  if (values.version) return console.log(VERSION), 0;
  const [command = "serve", sub] = positionals;
  const config = loadConfig();
  const log = createLogger(config.logLevel);

  switch (command) {
    case "serve": {
      const running = await startServer(config, log);
      if (running.firstKey) {
        log.info("created the owner account; its setup link and API key follow on stdout, shown once");
        if (running.setupUrl) console.log(`Owner setup (email and password; one use, within ${config.passwordLinkTtlHours} h): ${running.setupUrl}`);
        console.log(running.firstKey.key);
      }
      const shutdown = async (signal: string) => {
        log.info("shutting down", { signal });
        await running.stop();
        process.exit(0);
      };
      process.on("SIGINT", () => void shutdown("SIGINT"));
      process.on("SIGTERM", () => void shutdown("SIGTERM"));
      return -1; // keep running
    }
    case "migrate": {
      const applied = await withDatabase(config, async () => []);
      log.info("migrations applied", { applied });
      return 0;
    }
    case "keys": {
      if (sub !== "create") throw new UsageError(`Unknown keys command "${sub ?? ""}": use keys create --name NAME`);
      const name = values.name?.trim();
      if (!name) throw new UsageError("keys create needs --name NAME");
      const key = await withDatabase(config, (d) => createOwnerKey(d.db, config.ownerPlan, name));
      console.log(`Created API key "${key.name}" (${key.id}). It is shown once; store it now:`);
      console.log(key.key);
      return 0;
    }
    case "accounts": {
      const { createAccount, listAccounts, setPlan } = await import("./modules/accounts/service");
      const { createApiKey } = await import("./modules/auth/keys");
      const parsePlan = (raw: string | undefined): PlanId => {
        if (!raw || !(PLANS as readonly string[]).includes(raw)) throw new UsageError(`--plan must be one of ${PLANS.join(", ")}`);
        return raw as PlanId;
      };
      if (sub === "create") {
        const name = values.name?.trim();
        if (!name) throw new UsageError("accounts create needs --name NAME");
        const plan = values.plan === undefined ? config.defaultPlan : parsePlan(values.plan);
        const key = await withDatabase(config, async (d) => {
          const account = await createAccount(d.db, { name, planId: plan, email: values.email });
          console.log(`Created account "${name}" (${account.id}) on the ${plan} plan. Its API key is shown once:`);
          return createApiKey(d.db, account.id, "First key");
        });
        console.log(key.key);
        return 0;
      }
      if (sub === "list") {
        const rows = await withDatabase(config, (d) => listAccounts(d.db));
        for (const a of rows) console.log(`${a.id}\t${a.planId}\t${a.isAdmin ? "admin" : "-"}\t${a.name}`);
        return 0;
      }
      if (sub === "plan") {
        const [, , accountId, plan] = positionals;
        if (!accountId) throw new UsageError("Usage: accounts plan ACCOUNT_ID PLAN");
        const updated = await withDatabase(config, (d) => setPlan(d.db, accountId, parsePlan(plan)));
        console.log(`${updated.id} is now on the ${updated.planId} plan`);
        return 0;
      }
      throw new UsageError(`Unknown accounts command "${sub ?? ""}": use create, list or plan`);
    }
    case "users": {
      const { usersCommand } = await import("./modules/people/cli");
      const email = values.email?.trim();
      if (!email) throw new UsageError(`users ${sub ?? ""} needs --email EMAIL`);
      if (sub !== "set-password" && sub !== "reset-link") throw new UsageError(`Unknown users command "${sub ?? ""}": use set-password or reset-link`);
      const password = sub === "set-password" ? firstLine(await new Response(Bun.stdin.stream()).text()) : "";
      const line = await withDatabase(config, (d) => usersCommand(d.db, config, { command: sub, email, password, accountId: values.account?.trim() }));
      console.log(line);
      return 0;
    }
    case "models": {
      if (sub !== "pull" || !positionals[2]) throw new UsageError("Usage: models pull MODEL_ID");
      const { pullModel } = await import("./ai/models-pull");
      const result = await pullModel({ modelId: positionals[2], modelsDir: config.modelsDir, hubUrl: config.modelHubUrl });
      console.log(`Pulled ${positionals[2]} into ${result.dir} (${result.files.length} files)`);
      return 0;
    }
    case "backup":
    case "restore": {
      const { backupCommand, restoreCommand } = await import("./modules/backups/cli");
      const path = positionals[1];
      if (!path) throw new UsageError(`Usage: ${command} PATH`);
      const lines = command === "backup" ? await backupCommand(config, VERSION, path) : await restoreCommand(config, path);
      for (const line of lines) console.log(line);
      return 0;
    }
    case "import": {
      const { importCommand } = await import("./import/command");
      const result = await importCommand(positionals.slice(1), values, config);
      if (result.usage) throw new UsageError(result.usage);
      return result.code;
    }
    default:
      throw new UsageError(`Unknown command "${command}". Run with --help to see the commands.`);
  }
}

class UsageError extends Error {}

const firstLine = (text: string) => text.split(/\r?\n/)[0] ?? "";

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error) => {
    if (error instanceof ConfigError || error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      console.error(error.message);
      process.exit(2);
    }
    if (error instanceof AppError) {
      console.error(`brainbox: ${error.message}`);
      process.exit(1);
    }
    console.error(`brainbox: ${(error as Error).stack ?? error}`);
    process.exit(1);
  },
);
