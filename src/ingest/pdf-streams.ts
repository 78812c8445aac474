// A PDF's compressed streams, decompressed with a cap before pdf.js sees the document: pdf.js inflates a
// stream whole when it reads it, so one small stream that expands to gigabytes would be held in memory at
// once. Each FlateDecode stream is inflated here with its output capped at what the limits still allow
// (budget.ts), from its start to the end of its deflate data (the declared /Length is not trusted), and
// the output is dropped: only its size is kept.
import { inflateSync } from "node:zlib";
import { ExpansionMeter, type ExtractionLimits } from "./budget.ts";

/** `stream` followed by its end of line: the data starts right after. */
const STREAM_KEYWORD = /(?<!end)stream\r?\n/g;
/** How far back from `stream` its dictionary is looked for. */
const DICTIONARY_WINDOW = 4096;
/** The first filter is FlateDecode (its abbreviation `Fl` in inline forms). */
const FLATE_FIRST = /\/Filter\s*\[?\s*\/(?:FlateDecode|Fl)\b/;

/** Throws `document_too_large` when a stream, or all of them together, decompress beyond the limits. */
export function checkPdfStreams(bytes: Uint8Array, limits: ExtractionLimits): void {
  const text = new TextDecoder("latin1").decode(bytes);
  const meter = new ExpansionMeter(limits, "stream");
  let number = 0;
  for (const match of text.matchAll(STREAM_KEYWORD)) {
    number++;
    const at = match.index!;
    const dictionary = text.slice(Math.max(0, at - DICTIONARY_WINDOW), at);
    const opened = dictionary.lastIndexOf("obj");
    if (!FLATE_FIRST.test(opened >= 0 ? dictionary.slice(opened) : dictionary)) continue;
    const room = meter.room();
    let size: number;
    try {
      // zlib stops at the end of the deflate data; what follows (endstream, other objects) is ignored.
      size = inflateSync(bytes.subarray(at + match[0].length), { maxOutputLength: room + 1, finishFlush: 2 /* Z_SYNC_FLUSH */ }).length;
    } catch (e) {
      if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") meter.overflow(`number ${number}`);
      continue; // damaged: pdf.js fails on it or skips it, without expanding it
    }
    if (size > room) meter.overflow(`number ${number}`);
    meter.add(size);
  }
}
