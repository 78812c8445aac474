// A cheap look at an uploaded file before it is stored: a zip container (DOCX, XLSX, PPTX, EPUB, ODF…) whose
// own directory declares more entries or bytes than the extraction limits allow is refused at once, so the
// upload answers 422 instead of a source that fails later. Declared sizes can lie, so this never replaces
// the bounded inflation at extraction (zip-bounded.ts); it only turns the honest bomb away early.
import { formatBytes, tooLarge, type ExtractionLimits } from "./budget.ts";
import { isIngestError } from "./errors.ts";
import { listZip, type ZipListing } from "./zip-bounded.ts";

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** Throws `document_too_large` when the file's own directory says it is over the limits; else returns. */
export function precheckUpload(bytes: Uint8Array, limits: ExtractionLimits): void {
  if (!isZip(bytes)) return;
  let listing: ZipListing[];
  try {
    listing = listZip(bytes, limits.maxEntries);
  } catch (e) {
    if (isIngestError(e) && e.code === "document_too_large") throw e;
    return; // a damaged zip is the extractor's to explain, with its format's words
  }
  let total = 0;
  for (const entry of listing) {
    if (entry.declaredSize > limits.maxPartBytes)
      throw tooLarge(`the part ${entry.name} expands to ${formatBytes(entry.declaredSize)}, over the limit of ${formatBytes(limits.maxPartBytes)} a part`);
    total += entry.declaredSize;
  }
  if (total > limits.maxExpandedBytes) throw tooLarge(`the document expands to ${formatBytes(total)}, over the limit of ${formatBytes(limits.maxExpandedBytes)}`);
}
