// `brainbox models pull <id>`: fetch the files Transformers.js needs from the Hugging Face hub (or a mirror)
// into `{modelsDir}/{modelId}`, the layout `env.localModelPath` expects.
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { OPTIONAL_MODEL_FILES, REQUIRED_MODEL_FILES } from "./model-files.ts";

const DEFAULT_HUB = "https://huggingface.co";
// "owner/name" or "name", the way the hub spells repositories; also keeps the id from escaping modelsDir.
const MODEL_ID = /^(?:[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*$/;

export class ModelPullError extends Error {
  override name = "ModelPullError";
}

export async function pullModel(opts: {
  modelId: string;
  modelsDir: string;
  hubUrl?: string;
}): Promise<{ dir: string; files: string[] }> {
  const { modelId } = opts;
  if (typeof modelId !== "string" || !MODEL_ID.test(modelId) || modelId.split("/").some((s) => s.includes(".."))) {
    throw new ModelPullError(`Invalid model id ${JSON.stringify(modelId)}: expected "owner/name", e.g. "BAAI/bge-small-en-v1.5"`);
  }
  const hub = hubBase(opts.hubUrl ?? DEFAULT_HUB);
  const modelsDir = resolve(opts.modelsDir);
  const dir = join(modelsDir, modelId);

  // Everything lands in a staging folder first (same filesystem, so renames work): a failed pull leaves
  // nothing under modelsDir but that hidden folder, removed on the way out.
  await mkdir(modelsDir, { recursive: true });
  const staging = await mkdtemp(join(modelsDir, ".pull-"));
  try {
    const files: string[] = [];
    for (const file of [...REQUIRED_MODEL_FILES, ...OPTIONAL_MODEL_FILES]) {
      const required = REQUIRED_MODEL_FILES.includes(file);
      if (await download(`${hub}/${modelId}/resolve/main/${file}`, join(staging, file), required)) files.push(file);
    }
    // Then each file moves in with a rename, so a reader never sees a half-written file.
    for (const file of files) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await rename(join(staging, file), join(dir, file));
    }
    return { dir, files };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function hubBase(hubUrl: string): string {
  let url: URL;
  try {
    url = new URL(hubUrl);
  } catch {
    throw new ModelPullError(`Invalid hub URL ${JSON.stringify(hubUrl)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ModelPullError(`Hub URL must be http(s): ${hubUrl}`);
  return url.href.replace(/\/+$/, "");
}

/** Streams url into path; false when an optional file is absent (404). */
async function download(url: string, path: string, required: boolean): Promise<boolean> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: "follow" }); // the hub redirects large files to its CDN
  } catch (e) {
    throw new ModelPullError(`Could not reach ${url}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  if (response.status === 404 && !required) {
    await response.body?.cancel();
    return false;
  }
  if (!response.ok) {
    await response.body?.cancel();
    // The hub answers 401 (not 404) for a repository it does not know, to hide private ones.
    const hint = [401, 404].includes(response.status)
      ? " (unknown, private or gated model id, or a model without an ONNX export for Transformers.js)"
      : "";
    throw new ModelPullError(`Download of ${url} failed: HTTP ${response.status}${hint}`);
  }
  await mkdir(dirname(path), { recursive: true });
  const written = await Bun.write(path, response);
  // content-length counts encoded bytes, so compare only when the body was sent as is.
  const encoded = (response.headers.get("content-encoding") ?? "identity") !== "identity";
  const expected = Number(response.headers.get("content-length") ?? NaN);
  if (!encoded && Number.isFinite(expected) && written !== expected) {
    throw new ModelPullError(`Download of ${url} was cut short: ${written} of ${expected} bytes`);
  }
  return true;
}
