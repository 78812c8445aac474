// Sentence embeddings with Transformers.js on onnxruntime-node (CPU), from a local model folder only.
import type { FeatureExtractionPipeline } from "@huggingface/transformers";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { REQUIRED_MODEL_FILES } from "./model-files.ts";
import { disableOrtTelemetry } from "./ort-telemetry.ts";
import { preloadOrtLibrary } from "./ort-native.ts";

export interface Embedder {
  readonly model: string;
  readonly dim: number;
  /** One L2-normalized vector per text, in input order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

export class EmbedderError extends Error {
  override name = "EmbedderError";
}

const BATCH_SIZE = 32; // measured: ~1.5x the throughput of batch 1 on 2 cores (DESIGN "Embeddings")

// env is process-global and pipeline() reads it across awaits: serialize loads so two folders never mix.
let loadQueue: Promise<unknown> = Promise.resolve();

export async function loadEmbedder(opts: { modelsDir: string; model: string }): Promise<Embedder> {
  const modelsDir = resolve(opts.modelsDir);
  const dir = join(modelsDir, opts.model);
  const missing = REQUIRED_MODEL_FILES.filter((f) => !existsSync(join(dir, f)));
  if (missing.length > 0) {
    throw new EmbedderError(
      `Embedding model folder ${dir} is ${missing.length === REQUIRED_MODEL_FILES.length ? "missing" : "incomplete"}` +
        ` (missing: ${missing.join(", ")}). Provision it with \`brainbox models pull ${opts.model}\`.`,
    );
  }

  const load = loadQueue.then(() => createPipeline(modelsDir, opts.model, dir));
  loadQueue = load.catch(() => undefined);
  const extractor = await load;

  const embed = async (texts: string[]): Promise<Float32Array[]> => {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) {
      throw new TypeError("embed() expects an array of strings");
    }
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += BATCH_SIZE) {
      const output = await extractor(texts.slice(start, start + BATCH_SIZE), { pooling: "mean", normalize: true });
      const [rows, width] = output.dims as [number, number];
      const data = output.data as Float32Array;
      // Copy each row: callers keep vectors long after the batch tensor is gone.
      for (let r = 0; r < rows; r++) vectors.push(data.slice(r * width, (r + 1) * width));
    }
    return vectors;
  };

  const probe = await embed(["dimension probe"]).catch((e: unknown) => {
    throw new EmbedderError(`Embedding model in ${dir} failed on a probe sentence: ${errorText(e)}`, { cause: e });
  });
  const dim = probe[0]!.length;
  return { model: opts.model, dim, embed };
}

// Loaded on first use: importing this file stays cheap, and telemetry is off before onnxruntime loads.
let transformers: Promise<typeof import("@huggingface/transformers")> | undefined;
function loadTransformers() {
  if (!transformers) {
    disableOrtTelemetry();
    preloadOrtLibrary();
    transformers = import("@huggingface/transformers");
  }
  return transformers;
}

async function createPipeline(modelsDir: string, model: string, dir: string): Promise<FeatureExtractionPipeline> {
  try {
    const { env, pipeline } = await loadTransformers();
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = modelsDir;
    env.useFSCache = false; // never write caches next to the library (read-only in the single binary)
    return await pipeline("feature-extraction", model, { device: "cpu", dtype: "fp32" });
  } catch (e) {
    throw new EmbedderError(`Could not load the embedding model in ${dir}: ${errorText(e)}`, { cause: e });
  }
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
