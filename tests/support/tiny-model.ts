// A tiny random BERT-shaped model folder for Transformers.js feature-extraction.
// It exercises the real code path (tokenizer → onnxruntime → pooling); its similarities mean nothing.
// No python/onnx library is available, so the ONNX protobuf is written by hand below.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { mulberry32 } from "./random";

const HIDDEN = 32;
const MAX_POSITIONS = 512;
const SEED = 0x5eed;

const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
const CHARS = [..."abcdefghijklmnopqrstuvwxyz0123456789"];
const PUNCT = [..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"];
const WORDS = (
  "the of and to in is was for on that with as by at from it an be this are or which" +
  " brain brainbox page wiki source answer question knowledge model search vector text"
).split(" ");
// Single characters and "##x" pieces let WordPiece spell any lowercase word, so few tokens become [UNK].
const VOCAB = [...SPECIAL, ...PUNCT, ...CHARS, ...CHARS.map((c) => `##${c}`), ...WORDS];

/** Writes the model folder `{modelsDir}/{name}` and returns the model name. */
/**
 * `hidden` and `layers` (feed-forward blocks of H→4H→H with a residual) make a heavier model of the same
 * shape: benchmarks use one whose cost per text is close to a real small embedding model's.
 */
export async function buildTinyModel(modelsDir: string, name = "tiny-bert", size: { hidden?: number; layers?: number } = {}): Promise<string> {
  const hidden = size.hidden ?? HIDDEN;
  const layers = size.layers ?? 0;
  const dir = join(modelsDir, name);
  await mkdir(join(dir, "onnx"), { recursive: true });
  await Promise.all([
    Bun.write(join(dir, "config.json"), JSON.stringify(modelConfig(hidden), null, 2)),
    Bun.write(join(dir, "tokenizer.json"), JSON.stringify(tokenizerJson(), null, 2)),
    Bun.write(join(dir, "tokenizer_config.json"), JSON.stringify(tokenizerConfig(), null, 2)),
    Bun.write(join(dir, "special_tokens_map.json"), JSON.stringify(specialTokensMap(), null, 2)),
    Bun.write(join(dir, "vocab.txt"), VOCAB.join("\n") + "\n"),
    Bun.write(join(dir, "onnx", "model.onnx"), onnxModel(SEED, hidden, layers)),
  ]);
  return name;
}

// ---------- JSON files (the shapes Hugging Face tokenizers / Transformers.js read) ----------

function modelConfig(hidden: number) {
  return {
    architectures: ["BertModel"],
    model_type: "bert",
    vocab_size: VOCAB.length,
    hidden_size: hidden,
    num_hidden_layers: 1,
    num_attention_heads: 2,
    intermediate_size: hidden * 2,
    max_position_embeddings: MAX_POSITIONS,
    type_vocab_size: 2,
    pad_token_id: 0,
  };
}

const tokenId = (t: string) => VOCAB.indexOf(t);

function specialTokensMap() {
  return { unk_token: "[UNK]", sep_token: "[SEP]", pad_token: "[PAD]", cls_token: "[CLS]", mask_token: "[MASK]" };
}

function tokenizerConfig() {
  return {
    ...specialTokensMap(),
    tokenizer_class: "BertTokenizer",
    do_lower_case: true,
    model_max_length: MAX_POSITIONS,
    clean_up_tokenization_spaces: true,
  };
}

function tokenizerJson() {
  const special = (id: string) => ({ SpecialToken: { id, type_id: 0 } });
  const sequence = (id: "A" | "B", type_id: number) => ({ Sequence: { id, type_id } });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content) => ({
      id: tokenId(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
    })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [special("[CLS]"), sequence("A", 0), special("[SEP]")],
      pair: [special("[CLS]"), sequence("A", 0), special("[SEP]"), sequence("B", 1), { SpecialToken: { id: "[SEP]", type_id: 1 } }],
      special_tokens: Object.fromEntries(
        ["[CLS]", "[SEP]"].map((t) => [t, { id: t, ids: [tokenId(t)], tokens: [t] }]),
      ),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(VOCAB.map((t, i) => [t, i])),
    },
  };
}

// ---------- the ONNX graph ----------
// hidden = Tanh(MatMul(word[input_ids] + position[cumsum(mask)-1] + type[token_type_ids], W) + b)
// Position embeddings make word order matter; positions come from the mask so no Shape/Range is needed.

function onnxModel(seed: number, H: number, layers: number): Uint8Array {
  const random = mulberry32(seed);
  const uniform = (n: number, scale: number) => Float32Array.from({ length: n }, () => (random() * 2 - 1) * scale);
  const V = VOCAB.length;

  const initializers = [
    floatTensor("word_embeddings", [V, H], uniform(V * H, 1)),
    floatTensor("position_embeddings", [MAX_POSITIONS, H], uniform(MAX_POSITIONS * H, 0.5)),
    floatTensor("token_type_embeddings", [2, H], uniform(2 * H, 0.5)),
    floatTensor("dense_weight", [H, H], uniform(H * H, 1 / Math.sqrt(H))),
    floatTensor("dense_bias", [H], uniform(H, 0.1)),
    int64Tensor("one", [], [1]),
    int64Tensor("seq_axis", [], [1]),
  ];
  const nodes = [
    node("Gather", ["word_embeddings", "input_ids"], ["words"]),
    node("CumSum", ["attention_mask", "seq_axis"], ["mask_cumsum"]),
    node("Sub", ["mask_cumsum", "one"], ["position_ids"]),
    node("Gather", ["position_embeddings", "position_ids"], ["positions"]),
    node("Gather", ["token_type_embeddings", "token_type_ids"], ["types"]),
    node("Add", ["words", "positions"], ["words_positions"]),
    node("Add", ["words_positions", "types"], ["embeddings"]),
    node("MatMul", ["embeddings", "dense_weight"], ["projected"]),
    node("Add", ["projected", "dense_bias"], ["biased"]),
    node("Tanh", ["biased"], [layers ? "block0" : "last_hidden_state"]),
  ];
  for (let l = 0; l < layers; l++) {
    const input = `block${l}`;
    const output = l === layers - 1 ? "last_hidden_state" : `block${l + 1}`;
    initializers.push(floatTensor(`up${l}`, [H, 4 * H], uniform(4 * H * H, 1 / Math.sqrt(H))));
    initializers.push(floatTensor(`down${l}`, [4 * H, H], uniform(4 * H * H, 1 / Math.sqrt(4 * H))));
    nodes.push(
      node("MatMul", [input, `up${l}`], [`up_out${l}`]),
      node("Tanh", [`up_out${l}`], [`act${l}`]),
      node("MatMul", [`act${l}`, `down${l}`], [`down_out${l}`]),
      node("Add", [input, `down_out${l}`], [`res${l}`]),
      node("Tanh", [`res${l}`], [output]),
    );
  }
  const graph = message(
    ...nodes.map((n) => bytesField(1, n)),
    stringField(2, "tiny_bert"),
    ...initializers.map((t) => bytesField(5, t)),
    ...["input_ids", "attention_mask", "token_type_ids"].map((n) =>
      bytesField(11, valueInfo(n, DataType.INT64, ["batch_size", "sequence_length"])),
    ),
    bytesField(12, valueInfo("last_hidden_state", DataType.FLOAT, ["batch_size", "sequence_length", H])),
  );
  return message(
    intField(1, 8), // ir_version
    stringField(2, "brainbox-tiny-model"), // producer_name
    bytesField(7, graph),
    bytesField(8, message(stringField(1, ""), intField(2, 13))), // opset_import: default domain, opset 13
  );
}

const DataType = { FLOAT: 1, INT64: 7 } as const;

function node(opType: string, inputs: string[], outputs: string[]): Uint8Array {
  return message(
    ...inputs.map((i) => stringField(1, i)),
    ...outputs.map((o) => stringField(2, o)),
    stringField(3, `${opType}_${outputs[0]}`),
    stringField(4, opType),
  );
}

function floatTensor(name: string, dims: number[], values: Float32Array): Uint8Array {
  return tensor(name, dims, DataType.FLOAT, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

function int64Tensor(name: string, dims: number[], values: number[]): Uint8Array {
  const raw = BigInt64Array.from(values.map(BigInt));
  return tensor(name, dims, DataType.INT64, new Uint8Array(raw.buffer));
}

// raw_data is little-endian, which is what typed arrays hold on every platform we ship to.
function tensor(name: string, dims: number[], dataType: number, raw: Uint8Array): Uint8Array {
  return message(...dims.map((d) => intField(1, d)), intField(2, dataType), stringField(8, name), bytesField(9, raw));
}

function valueInfo(name: string, elemType: number, shape: (number | string)[]): Uint8Array {
  const dims = shape.map((d) => bytesField(1, typeof d === "number" ? intField(1, d) : stringField(2, d)));
  const tensorType = message(intField(1, elemType), bytesField(2, message(...dims)));
  return message(stringField(1, name), bytesField(2, bytesField(1, tensorType)));
}

// ---------- a minimal protobuf writer (varint + length-delimited fields are all ONNX needs here) ----------

function varint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint needs a non-negative integer: ${value}`);
  const out: number[] = [];
  while (value > 0x7f) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
  return Uint8Array.from(out);
}

const intField = (field: number, value: number) => message(varint(field * 8 + 0), varint(value));
const bytesField = (field: number, bytes: Uint8Array) => message(varint(field * 8 + 2), varint(bytes.length), bytes);
const stringField = (field: number, s: string) => bytesField(field, new TextEncoder().encode(s));

function message(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

