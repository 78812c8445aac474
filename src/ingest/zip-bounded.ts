// Reads a zip container (DOCX and every zip-based format) within the extraction limits (budget.ts). The
// sizes a zip declares are never trusted: each entry is inflated with its output capped at what the limits
// still allow, so a bomb stops at the cap, and the entry count is what the central directory really holds.
import { inflateRawSync } from "node:zlib";
import { zipSync } from "fflate";
import { ExpansionMeter, tooLarge, type ExtractionLimits } from "./budget.ts";
import { IngestError } from "./errors.ts";

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The end record is 22 bytes and may be followed by a comment of up to 64 KiB. */
const EOCD_SEARCH = 22 + 0xffff;

export type ZipEntries = Record<string, Uint8Array>;

/** A file entry as the central directory lists it; `data` is still compressed (`method` 8) or stored (0). */
export interface ZipListing {
  name: string;
  method: number;
  data: Uint8Array;
  /** What the directory says the entry inflates to: a claim, checked only by the inflation itself. */
  declaredSize: number;
}

/**
 * Every file entry of the zip, inflated; throws `document_too_large` (a limit) or `unreadable_document`.
 * `wanted` (a name test) leaves the other entries uninflated (an e-book's pictures, a workbook's media): they
 * count as entries, not as bytes.
 */
export function unzipBounded(bytes: Uint8Array, limits: Pick<ExtractionLimits, "maxExpandedBytes" | "maxPartBytes" | "maxEntries">, wanted: (name: string) => boolean = () => true): ZipEntries {
  const meter = new ExpansionMeter(limits, "part");
  const entries: ZipEntries = {};
  for (const entry of listZip(bytes, limits.maxEntries)) if (wanted(entry.name)) entries[entry.name] = readEntry(entry.name, entry.method, entry.data, meter);
  return entries;
}

/** The file entries of the central directory (folders left out), none inflated; at most `maxEntries`. */
export function listZip(bytes: Uint8Array, maxEntries: number): ZipListing[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndRecord(view);
  let at = view.getUint32(end + 16, true);
  const directoryEnd = Math.min(at + view.getUint32(end + 12, true), end);
  const listing: ZipListing[] = [];
  let count = 0;
  while (at + 46 <= directoryEnd && view.getUint32(at, true) === CENTRAL) {
    if (++count > maxEntries) throw tooLarge(`the document has more than ${maxEntries.toLocaleString("en-US")} parts`);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const declaredSize = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const headerAt = view.getUint32(at + 42, true);
    const name = entryName(bytes.subarray(at + 46, at + 46 + nameLength), flags);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.endsWith("/")) continue; // a folder
    if (flags & 1) throw unreadable("it is encrypted");
    if (headerAt + 30 > bytes.length || view.getUint32(headerAt, true) !== LOCAL) throw unreadable(`the entry ${name} is damaged`);
    const dataAt = headerAt + 30 + view.getUint16(headerAt + 26, true) + view.getUint16(headerAt + 28, true);
    listing.push({ name, method, data: bytes.subarray(dataAt, Math.min(dataAt + compressed, bytes.length)), declaredSize });
  }
  return listing;
}

/** One listed entry inflated to at most `maxBytes` (for a look at a small part, such as a format's label). */
export function readListed(entry: ZipListing, maxBytes: number): Uint8Array {
  return readEntry(entry.name, entry.method, entry.data, new ExpansionMeter({ maxExpandedBytes: maxBytes, maxPartBytes: maxBytes }, "part"));
}

const CP437_HIGH =
  "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0";

/**
 * An entry's name: UTF-8 when the zip says so (flag bit 11) or the bytes are valid UTF-8 (many tools write
 * UTF-8 without the flag), else code page 437, what the zip format means by a name without the flag.
 */
function entryName(raw: Uint8Array, flags: number): string {
  if (flags & 0x800) return new TextDecoder().decode(raw);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    return Array.from(raw, (b) => (b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80]!)).join("");
  }
}

/** The entries as a zip a zip library can read: stored (not compressed again), only what was checked. */
export function rezip(entries: ZipEntries): Uint8Array {
  return zipSync(entries, { level: 0 });
}

function readEntry(name: string, method: number, data: Uint8Array, meter: ExpansionMeter): Uint8Array {
  const room = meter.room();
  let out: Uint8Array;
  if (method === 0) {
    out = data;
  } else if (method === 8) {
    try {
      // One byte over the room tells a bomb from an entry that fits exactly; zlib stops there.
      out = inflateRawSync(data, { maxOutputLength: room + 1, finishFlush: 2 /* Z_SYNC_FLUSH: a cut entry gives what it has */ });
    } catch (e) {
      if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") meter.overflow(name);
      throw unreadable(`the entry ${name} is damaged (${(e as Error).message})`);
    }
  } else {
    throw unreadable(`the entry ${name} uses an unsupported compression method (${method})`);
  }
  if (out.length > room) meter.overflow(name);
  meter.add(out.length);
  return out;
}

function findEndRecord(view: DataView): number {
  for (let at = view.byteLength - 22; at >= Math.max(0, view.byteLength - EOCD_SEARCH); at--) {
    if (view.getUint32(at, true) !== EOCD) continue;
    if (view.getUint32(at + 16, true) === 0xffffffff) throw unreadable("it is a zip64 container, which is not supported");
    return at;
  }
  throw unreadable("it is not a zip container (no central directory)");
}

function unreadable(why: string): IngestError {
  return new IngestError("unreadable_document", `could not read the zip container: ${why}`);
}
