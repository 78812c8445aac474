// Argument handling of `brainbox import PATH --brain ID`: where the server is, which key, where the state is.
import { statSync } from "node:fs";
import type { Config } from "../config";
import { ImportError, runImport } from "./index";
import { ImportState } from "./state";
import { importVault, type VaultImportArgs } from "./vault";

export async function importCommand(
  args: string[],
  values: { brain?: string; url?: string; key?: string; state?: string; force?: boolean; sync?: boolean; "batch-bytes"?: string; vault?: boolean },
  config: Config,
): Promise<{ code: number; usage?: string }> {
  const folder = args[0];
  if (!folder || args.length > 1) return { code: 2, usage: "Usage: brainbox import PATH --brain ID [--url URL] [--key KEY] [--state FILE] [--force] [--sync] [--batch-bytes N], or brainbox import --vault PATH --brain ID (a folder or zip)" };
  if (!values.brain) return { code: 2, usage: "import needs --brain ID (the brain's id, e.g. from GET /api/v1/brains)" };
  const key = values.key ?? config.importApiKey;
  if (!key) return { code: 2, usage: "import needs an API key: --key KEY or BRAINBOX_API_KEY" };
  const url = values.url ?? config.importUrl ?? `http://127.0.0.1:${config.port}`;
  if (values.vault) return vaultCommand({ path: folder, brainId: values.brain, url, key });
  try {
    if (!statSync(folder).isDirectory()) return { code: 2, usage: `${folder} is not a folder` };
  } catch {
    return { code: 2, usage: `${folder} does not exist or cannot be read` };
  }
  const maxBatchBytes = values["batch-bytes"] === undefined ? undefined : Number(values["batch-bytes"]);
  if (maxBatchBytes !== undefined && !(Number.isInteger(maxBatchBytes) && maxBatchBytes >= 1024))
    return { code: 2, usage: "--batch-bytes must be a whole number of bytes, at least 1024" };
  try {
    const totals = await runImport({
      folder,
      brainId: values.brain,
      url,
      key,
      force: values.force,
      sync: values.sync,
      maxBatchBytes,
      stateFile: values.state ?? ImportState.defaultFile(config.dataDir, values.brain, folder),
      tty: process.stderr.isTTY === true && process.stdout.isTTY === true,
    });
    return { code: totals.failed > 0 ? 1 : 0 };
  } catch (e) {
    if (e instanceof ImportError) {
      console.error(`brainbox import: ${e.message}`);
      return { code: 1 };
    }
    throw e;
  }
}

async function vaultCommand(args: VaultImportArgs): Promise<{ code: number; usage?: string }> {
  try {
    for (const line of await importVault(args)) console.log(line);
    return { code: 0 };
  } catch (e) {
    console.error(`brainbox import --vault: ${(e as Error).message}`);
    return { code: 1 };
  }
}
