// The files of a local model folder, shared by the embedder (checks them) and `models pull` (fetches them).
// Kept apart from embedder.ts so pulling never loads Transformers.js and onnxruntime.

/** What Transformers.js reads for a BERT-style feature-extraction model at dtype fp32. */
export const REQUIRED_MODEL_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"];

/** Fetched when the hub has them (older tokenizers and other tools read them); a 404 is fine. */
export const OPTIONAL_MODEL_FILES = ["special_tokens_map.json", "vocab.txt"];
