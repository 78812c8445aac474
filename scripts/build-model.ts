// Writes the tiny random BERT-shaped test model: `bun scripts/build-model.ts <modelsDir> [name]`.
// Code path only (tokenizer → onnxruntime → pooling): its similarities mean nothing.
import { resolve } from "node:path";
import { buildTinyModel } from "../tests/support/tiny-model.ts";

const [modelsDir, name] = process.argv.slice(2);
if (!modelsDir || modelsDir === "--help" || modelsDir === "-h") {
  console.error("usage: bun scripts/build-model.ts <modelsDir> [name]   (name defaults to tiny-bert)");
  process.exit(modelsDir ? 0 : 2);
}
const model = await buildTinyModel(resolve(modelsDir), name);
console.log(`wrote ${resolve(modelsDir, model)}`);
