import Papa from "papaparse";
import type { ExtractionLimits } from "./budget.ts";
import { charsetOf } from "./detect-type.ts";
import { IngestError } from "./errors.ts";
import { RowCounter, sheetMarkdown } from "./extract-table.ts";
import { titleFromName } from "./titles.ts";
import type { DocumentSource, ExtractedDocument as Extracted } from "./types.ts";

/**
 * CSV and TSV with papaparse, one row at a time (the parse stops at the row limit, so a million-row file never
 * becomes a million rows in memory). Ragged rows are padded to the widest; the delimiter of a CSV is guessed
 * (comma, semicolon, tab, pipe), a TSV's is the tab.
 */
export function extractCsv(bytes: Uint8Array, contentType: string, source: DocumentSource, limits: ExtractionLimits, tabs: boolean): Extracted {
  if (bytes.subarray(0, 64 * 1024).includes(0) && !utf16(bytes)) throw new IngestError("unreadable_document", `the ${tabs ? "TSV" : "CSV"} file is binary, not text`);
  const text = decodeTable(bytes, contentType);
  const counter = new RowCounter(limits.maxRows);
  const rows: string[][] = [];
  let failure: IngestError | undefined;
  Papa.parse<string[]>(text, {
    delimiter: tabs ? "\t" : "",
    delimitersToGuess: [",", ";", "\t", "|"],
    skipEmptyLines: "greedy",
    // In chunks: a whole string at once is split into all its lines before the first row is seen.
    chunkSize: 1024 * 1024,
    step: (result, parser) => {
      try {
        counter.add();
      } catch (e) {
        failure = e as IngestError;
        parser.abort();
        return;
      }
      rows.push(result.data.map(String));
    },
  });
  if (failure) throw failure;
  return { title: titleFromName(source.filename, source.url), markdown: sheetMarkdown(undefined, rows), pagePerSection: true };
}

/**
 * A BOM or a declared charset other than UTF-8 wins; else UTF-8 when the bytes are UTF-8, else Windows-1252 (what a
 * spreadsheet program saves a "CSV" as on many desktops): "Zürich" stays "Zürich", not "Z�rich".
 */
export function decodeTable(bytes: Uint8Array, contentType: string): string {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? "utf-8" : utf16(bytes);
  // A declared UTF-8 is often only the server's default: the bytes decide it.
  const label = bom ?? charsetOf(contentType)?.replace(/^utf-?8$/, "");
  if (label) {
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // an unknown label: decide by the bytes
    }
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

function utf16(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}
