// Which document a zip container is, from what it holds, never from its name or label: an OpenDocument or
// EPUB file says so in its `mimetype` entry, an Office Open XML file in its [Content_Types].xml (the main
// part's content type). Only those small entries are inflated, each with a small cap; a bomb elsewhere in the
// zip is met later, by the format's reader, within the document limits.
import { listZip, readListed, type ZipListing } from "./zip-bounded.ts";

export type ZipDocumentKind = "docx" | "xlsx" | "pptx" | "odt" | "ods" | "epub";

/** A format's label is a line; a content-types part lists a few dozen parts. Anything larger is no label. */
const MIMETYPE_MAX = 256;
const CONTENT_TYPES_MAX = 256 * 1024;

const BY_MIMETYPE: Record<string, ZipDocumentKind> = {
  "application/epub+zip": "epub",
  "application/vnd.oasis.opendocument.text": "odt",
  "application/vnd.oasis.opendocument.spreadsheet": "ods",
};

/** Main parts of Office Open XML packages (documents, templates, macro-enabled variants). */
const MAIN_PARTS: [RegExp, ZipDocumentKind][] = [
  [/wordprocessingml\.(?:document|template)\.main\+xml|ms-word\.(?:document|template)\.macroEnabled/i, "docx"],
  [/spreadsheetml\.(?:sheet|template)\.main\+xml|ms-excel\.(?:sheet|template)\.macroEnabled/i, "xlsx"],
  [/presentationml\.(?:presentation|slideshow|template)\.main\+xml|ms-powerpoint\.(?:presentation|slideshow|template)\.macroEnabled/i, "pptx"],
];

/** The document kind a zip holds, or undefined when it is no zip this reads (or is too damaged to say). */
export function zipDocumentKind(bytes: Uint8Array, maxEntries: number): ZipDocumentKind | undefined {
  let listing: ZipListing[];
  try {
    listing = listZip(bytes, maxEntries);
  } catch {
    return undefined; // damaged or over the entry limit: the reader the label names says why
  }
  const mimetype = small(listing.find((e) => e.name === "mimetype"), MIMETYPE_MAX)?.trim();
  if (mimetype && BY_MIMETYPE[mimetype]) return BY_MIMETYPE[mimetype];
  const contentTypes = small(listing.find((e) => e.name === "[Content_Types].xml"), CONTENT_TYPES_MAX);
  if (!contentTypes) return undefined;
  return MAIN_PARTS.find(([type]) => type.test(contentTypes))?.[1];
}

function small(entry: ZipListing | undefined, maxBytes: number): string | undefined {
  if (!entry) return undefined;
  try {
    return new TextDecoder().decode(readListed(entry, maxBytes));
  } catch {
    return undefined;
  }
}
