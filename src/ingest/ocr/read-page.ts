// One page image to Markdown: blank pages are skipped before any model runs, the detector finds the lines,
// the recognizer reads them one by one, and the page's time is checked between lines (the document thread
// also ends a page that runs past it; see heartbeat.ts).
import { IngestError } from "../errors.ts";
import { detectText } from "./detect.ts";
import { linesToMarkdown } from "./layout.ts";
import { loadOcrModels } from "./models.ts";
import { isBlank, type GrayImage } from "./raster.ts";
import { recognizeLine, type ReadLine } from "./recognize.ts";
import { announceOcrPage } from "./heartbeat.ts";

export interface OcrPageLimits {
  /** Wall time one page may take. */
  ocrPageTimeMs: number;
}

/** The page's text as Markdown paragraphs; "" for a blank page. `label` names the page in errors ("page 3"). */
export async function readPageImage(image: GrayImage, limits: OcrPageLimits, label: string): Promise<string> {
  if (isBlank(image)) return "";
  announceOcrPage(limits.ocrPageTimeMs);
  const started = performance.now();
  const models = await loadOcrModels();
  const boxes = await detectText(models.detection, image);
  const lines: ReadLine[] = [];
  for (const box of boxes) {
    if (performance.now() - started > limits.ocrPageTimeMs) {
      throw new IngestError("extraction_over_budget", `reading ${label} with OCR took longer than ${limits.ocrPageTimeMs / 1000} s`);
    }
    const line = await recognizeLine(models.recognition, models.alphabet, image, box);
    if (line) lines.push(line);
  }
  return linesToMarkdown(lines);
}
