import { DEFAULT_EXTRACTION_BUDGET } from "./budget.ts";
import { IngestError } from "./errors.ts";
import { imageFormatOf } from "./ocr/decode-image.ts";
import { zipDocumentKind } from "./zip-sniff.ts";

export type DocumentKind = "html" | "pdf" | "docx" | "markdown" | "text" | SpreadsheetKind | "pptx" | "epub" | "odt" | "image";
export type SpreadsheetKind = "xlsx" | "ods" | "csv" | "tsv";

export type DetectInput = { bytes: Uint8Array; contentType: string; filename?: string; url?: string };

const BY_MEDIA_TYPE: Record<string, DocumentKind> = {
  "text/html": "html",
  "application/xhtml+xml": "html",
  "application/pdf": "pdf",
  "application/x-pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.ms-excel.sheet.macroenabled.12": "xlsx",
  "application/vnd.oasis.opendocument.spreadsheet": "ods",
  "text/csv": "csv",
  "application/csv": "csv",
  "text/comma-separated-values": "csv",
  "text/tab-separated-values": "tsv",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "application/epub+zip": "epub",
  "application/vnd.oasis.opendocument.text": "odt",
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "application/json": "text",
  "application/xml": "text",
  "application/yaml": "text",
  "application/x-yaml": "text",
};

// Labels that say nothing about the content: decide by file name, then by the bytes.
const UNINFORMATIVE = new Set([
  "",
  "application/octet-stream",
  "binary/octet-stream",
  "application/download",
  "application/force-download",
  "application/x-download",
  "application/unknown",
  "application/zip", // some servers label .docx as plain zip
  "application/x-zip-compressed",
  "application/vnd.ms-excel", // what Windows browsers call a .csv file (a legacy .xls is told by its bytes)
]);

const BY_EXTENSION: Record<string, DocumentKind> = {
  html: "html",
  htm: "html",
  xhtml: "html",
  pdf: "pdf",
  docx: "docx",
  md: "markdown",
  markdown: "markdown",
  mdown: "markdown",
  mkd: "markdown",
  txt: "text",
  text: "text",
  xlsx: "xlsx",
  xlsm: "xlsx",
  ods: "ods",
  csv: "csv",
  tsv: "tsv",
  tab: "tsv",
  pptx: "pptx",
  epub: "epub",
  odt: "odt",
};

// Labelled as an image the OCR reads, but without its first bytes (those are told apart above).
const RASTER_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/jpg", "image/gif", "image/tiff", "image/webp"]);

const MARKDOWN_EXTENSIONS = new Set(["md", "markdown", "mdown", "mkd"]);
/** A .csv or .tsv file is often served or uploaded as text/plain. */
const TABLE_EXTENSIONS: Record<string, DocumentKind> = { csv: "csv", tsv: "tsv", tab: "tsv" };

/**
 * What the bytes say first (a PDF, or a zip that names its format inside), then content type, then file
 * extension, then magic bytes. Throws `unsupported_type`.
 */
export function detectKind(input: DetectInput, maxEntries = DEFAULT_EXTRACTION_BUDGET.maxEntries): DocumentKind {
  if (startsWithAscii(input.bytes, "%PDF-")) return "pdf"; // unambiguous, whatever the label says
  const inZip = startsWithAscii(input.bytes, "PK\x03\x04") ? zipDocumentKind(input.bytes, maxEntries) : undefined;
  if (inZip) return inZip; // an XLSX labelled as DOCX, or as application/zip, is read as the XLSX it is
  if (imageFormatOf(input.bytes)) return "image"; // so are an image's first bytes (read with OCR)
  const mediaType = mediaTypeOf(input.contentType);
  const extension = extensionOf(input.filename) ?? extensionOf(urlPath(input.url));
  if (mediaType === "text/plain") {
    if (extension && TABLE_EXTENSIONS[extension]) return TABLE_EXTENSIONS[extension]!;
    return extension && MARKDOWN_EXTENSIONS.has(extension) ? "markdown" : "text"; // raw .md files are served as text/plain
  }
  if (RASTER_IMAGE_TYPES.has(mediaType)) throw new IngestError("unreadable_document", `could not read the image: its bytes are not a supported image (PNG, JPEG, GIF, TIFF or WebP), though it is labelled ${mediaType}`);
  const declared = BY_MEDIA_TYPE[mediaType];
  if (declared) return declared;
  if (mediaType.startsWith("text/")) return "text";
  if (!UNINFORMATIVE.has(mediaType)) throw unsupported(mediaType);
  const byExtension = extension ? BY_EXTENSION[extension] : undefined;
  return byExtension ?? sniff(input.bytes, mediaType || (extension ? `.${extension}` : "unlabelled"));
}

export function mediaTypeOf(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

export function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
}

function sniff(bytes: Uint8Array, label: string): DocumentKind {
  if (startsWithAscii(bytes, "PK\x03\x04")) return "docx"; // the DOCX reader reports other zips as unreadable
  if (startsWithAscii(bytes, "\xD0\xCF\x11\xE0")) throw unsupported("legacy Office (.doc, .xls, .ppt)");
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 512)).replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, "").trimStart().toLowerCase();
  if (/^<(!doctype html|html|head|body)[\s>]/.test(head)) return "html";
  if (looksLikeText(bytes)) return "text";
  throw unsupported(label);
}

function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 64 * 1024);
  if (sample.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(sample.subarray(0, lastCompleteUtf8(sample)));
    return true;
  } catch {
    return false;
  }
}

/** Length of the sample without a multi-byte character cut in half at its end. */
function lastCompleteUtf8(sample: Uint8Array): number {
  let end = sample.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = sample[end - back]!;
    if ((byte & 0xc0) === 0xc0) return end - back; // a lead byte: drop it and what follows
    if ((byte & 0x80) === 0) break;
  }
  return end;
}

function startsWithAscii(bytes: Uint8Array, prefix: string): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix.charCodeAt(i)) return false;
  return true;
}

export function extensionOf(name: string | undefined): string | undefined {
  const match = name ? /\.([a-z0-9]{1,10})$/i.exec(name) : null;
  return match?.[1]?.toLowerCase();
}

export function urlPath(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

function unsupported(label: string): IngestError {
  const hint = label === "application/msword" ? " (legacy .doc: save it as .docx)" : LEGACY_HINTS[label] ?? "";
  return new IngestError(
    "unsupported_type",
    `cannot extract text from ${label} documents${hint}; supported: ${SUPPORTED}`,
  );
}

const SUPPORTED = "HTML, PDF, DOCX, XLSX, ODS, CSV, TSV, PPTX, EPUB, ODT, Markdown, plain text, images (PNG, JPEG, GIF, TIFF, WebP; read with OCR)";
const LEGACY_HINTS: Record<string, string> = {
  "legacy Office (.doc, .xls, .ppt)": " (save it as .docx, .xlsx or .pptx)",
  "application/vnd.ms-powerpoint": " (legacy .ppt: save it as .pptx)",
};
