// Text recognition with the CRNN model: each detected line is cut out along its own direction, scaled to the
// model's height of 48 pixels, and read by CTC greedy decoding (the most likely character at each step,
// repeats merged, blanks dropped). Full-width forms the model sometimes prefers (，：（）) are folded to
// their ASCII twins by NFKC, which is how the rest of a brain's text is written.
import type { InferenceSession } from "onnxruntime-node";
import { sample, type GrayImage } from "./raster.ts";
import type { TextBox } from "./detect.ts";

const HEIGHT = 48;
/** Widest crop the recognizer is given; longer lines are squeezed into it. */
const MAX_WIDTH = 3200;
/** Lines read with less confidence than this are noise the detector took for text. */
const MIN_CONFIDENCE = 0.5;

export interface ReadLine {
  box: TextBox;
  text: string;
  confidence: number;
}

export async function recognizeLine(session: InferenceSession, alphabet: string[], image: GrayImage, box: TextBox): Promise<ReadLine | null> {
  const { Tensor } = await import("onnxruntime-node");
  const width = Math.min(MAX_WIDTH, Math.max(HEIGHT / 2, Math.round((box.length / box.thickness) * HEIGHT / 8) * 8));
  const input = crop(image, box, width);
  const output = await session.run({ [session.inputNames[0]!]: new Tensor("float32", input, [1, 3, HEIGHT, width]) });
  const probabilities = output[session.outputNames[0]!]!;
  const [, steps, classes] = probabilities.dims as [number, number, number];
  const { text, confidence } = ctcGreedy(probabilities.data as Float32Array, steps, classes, alphabet);
  const clean = text.normalize("NFKC").replace(/\s+/g, " ").trim();
  if (!clean || confidence < MIN_CONFIDENCE) return null;
  return { box, text: clean, confidence };
}

/** The box's pixels, along its direction, as the model's input: 3 equal channels scaled to [-1, 1]. */
function crop(image: GrayImage, box: TextBox, width: number): Float32Array {
  const plane = HEIGHT * width;
  const input = new Float32Array(3 * plane);
  const cos = Math.cos(box.angle);
  const sin = Math.sin(box.angle);
  const du = box.length / width;
  const dv = box.thickness / HEIGHT;
  // Two samples per output pixel each way: a 100-pixel-high line shrunk to 48 keeps its thin strokes.
  for (let j = 0; j < HEIGHT; j++) {
    for (let i = 0; i < width; i++) {
      let sum = 0;
      for (let a = 0.25; a < 1; a += 0.5) {
        for (let b = 0.25; b < 1; b += 0.5) {
          const u = (i + a) * du - box.length / 2;
          const v = (j + b) * dv - box.thickness / 2;
          sum += sample(image, box.cx + u * cos - v * sin, box.cy + u * sin + v * cos);
        }
      }
      const value = sum / 4 / 127.5 - 1;
      const k = j * width + i;
      input[k] = value;
      input[plane + k] = value;
      input[2 * plane + k] = value;
    }
  }
  return input;
}

/** Best class per step; a class repeated over steps is one character unless a blank (class 0) separates them. */
export function ctcGreedy(data: Float32Array, steps: number, classes: number, alphabet: string[]): { text: string; confidence: number } {
  let text = "";
  let sum = 0;
  let count = 0;
  let previous = 0;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    let bestP = -Infinity;
    const row = t * classes;
    for (let c = 0; c < classes; c++) {
      const p = data[row + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      text += alphabet[best] ?? "";
      sum += bestP;
      count++;
    }
    previous = best;
  }
  return { text, confidence: count ? sum / count : 0 };
}
