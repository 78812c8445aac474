// Hostile and heavy documents built by the tests: zip and PDF decompression bombs whose data is written as
// repeated deflate blocks (each ends in a full flush, so copies of it chain into one valid stream), a zip of
// many entries, and a long legitimate PDF. Nothing here is ever inflated by the tests themselves.
import { deflateRawSync, constants } from "node:zlib";

const encoder = new TextEncoder();
const MiB = 1024 * 1024;

/** Raw deflate data that inflates to head + body × copies + tail, built from one compressed copy of body. */
export function repeatedDeflate(head: string, body: Uint8Array, copies: number, tail: string): Uint8Array {
  const flushed = (bytes: Uint8Array) => deflateRawSync(bytes, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const one = flushed(body);
  const parts = [flushed(encoder.encode(head)), ...Array.from({ length: copies }, () => one), deflateRawSync(encoder.encode(tail))];
  return concat(parts);
}

interface ZipPart {
  name: string;
  data: Uint8Array;
  /** Deflated data: its inflated size. Absent: stored. */
  inflatedSize?: number;
  /** What the zip's directory says instead of the true size: a bomb that lies about itself. */
  declaredSize?: number;
}

/** How a bomb states its size: truthfully (refused from its directory at upload) or understated (read, and stopped while inflating). */
export type Declared = "truthful" | "understated";

/** A zip written by hand (CRCs left 0: readers that check them do so only after inflating). */
export function buildZipFile(parts: ZipPart[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = encoder.encode(part.name);
    const method = part.inflatedSize === undefined ? 0 : 8;
    const size = part.declaredSize ?? part.inflatedSize ?? part.data.length;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, method, true);
    local.setUint32(18, part.data.length, true);
    local.setUint32(22, Math.min(size, 0xfffffffe), true);
    local.setUint16(26, name.length, true);
    const entry = new DataView(new ArrayBuffer(46));
    entry.setUint32(0, 0x02014b50, true);
    entry.setUint16(4, 20, true);
    entry.setUint16(6, 20, true);
    entry.setUint16(10, method, true);
    entry.setUint32(20, part.data.length, true);
    entry.setUint32(24, Math.min(size, 0xfffffffe), true);
    entry.setUint16(28, name.length, true);
    entry.setUint32(42, offset, true);
    chunks.push(new Uint8Array(local.buffer), name, part.data);
    central.push(new Uint8Array(entry.buffer), name);
    offset += 30 + name.length + part.data.length;
  }
  const directory = concat(central);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, Math.min(parts.length, 0xffff), true);
  end.setUint16(10, Math.min(parts.length, 0xffff), true);
  end.setUint32(12, directory.length, true);
  end.setUint32(16, offset, true);
  return concat([...chunks, directory, new Uint8Array(end.buffer)]);
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const stored = (name: string, text: string): ZipPart => ({ name, data: encoder.encode(text) });

/** A DOCX whose word/document.xml is `mib` MiB of real paragraphs (about 1 MB compressed per GiB). */
export function docxBomb(mib = 1024, declared: Declared = "truthful"): Uint8Array {
  const paragraph = `<w:p><w:r><w:t>Budget bomb paragraph of a crafted upload.</w:t></w:r></w:p>`;
  const body = encoder.encode(paragraph.repeat(Math.floor(MiB / paragraph.length)));
  const head = `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>`;
  const tail = "</w:body></w:document>";
  const copies = Math.ceil((mib * MiB) / body.length);
  const data = repeatedDeflate(head, body, copies, tail);
  // Truthful: a reader that trusts the declared size still inflates and parses all of it. Understated: only
  // the inflation's own cap stops it.
  const inflatedSize = head.length + copies * body.length + tail.length;
  const declaredSize = declared === "understated" ? 64 * 1024 : undefined;
  return buildZipFile([stored("[Content_Types].xml", CONTENT_TYPES), stored("_rels/.rels", RELS), { name: "word/document.xml", data, inflatedSize, declaredSize }]);
}

/** A valid small DOCX with `entries` extra empty parts beside it. */
export function docxWithManyEntries(entries: number): Uint8Array {
  const document = `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body><w:p><w:r><w:t>Many entries.</w:t></w:r></w:p></w:body></w:document>`;
  const extra = Array.from({ length: entries }, (_, i) => stored(`customXml/item${i}.xml`, ""));
  return buildZipFile([stored("[Content_Types].xml", CONTENT_TYPES), stored("_rels/.rels", RELS), stored("word/document.xml", document), ...extra]);
}

/** A PDF from objects (bodies without `n 0 obj`), cross-reference table computed from the bytes written. */
function pdfOf(objects: (string | Uint8Array)[][], root = 1): Uint8Array {
  const parts: Uint8Array[] = [encoder.encode("%PDF-1.7\n")];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    for (const piece of [`${i + 1} 0 obj\n`, ...body, "\nendobj\n"]) {
      const bytes = typeof piece === "string" ? encoder.encode(piece) : piece;
      parts.push(bytes);
      length += bytes.length;
    }
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  tail += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  tail += `trailer\n<< /Size ${objects.length + 1} /Root ${root} 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(encoder.encode(tail));
  return concat(parts);
}

const FONT = ["<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"];

/** One page whose content stream is FlateDecode data inflating to `mib` MiB (spaces after one line of text). */
export function pdfBomb(mib = 500): Uint8Array {
  const zlibHeader = new Uint8Array([0x78, 0xda]);
  const spaces = new Uint8Array(MiB).fill(0x20);
  const deflated = concat([zlibHeader, repeatedDeflate("BT /F1 12 Tf 72 720 Td (A crafted upload) Tj ET\n", spaces, mib, "\n"), new Uint8Array(4)]);
  return pdfOf([
    ["<< /Type /Catalog /Pages 2 0 R >>"],
    ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"],
    ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"],
    [`<< /Length ${deflated.length} /Filter /FlateDecode >>\nstream\n`, deflated, "\nendstream"],
    FONT,
  ]);
}

/** A legitimate PDF of `pages` pages, a few lines of distinct text on each. */
export function longPdf(pages: number): Uint8Array {
  const objects: (string | Uint8Array)[][] = [["<< /Type /Catalog /Pages 2 0 R >>"], [""], FONT];
  const kids: string[] = [];
  for (let p = 0; p < pages; p++) {
    const lines = [`Chapter ${p + 1} of the long manual.`, `Page ${p + 1} explains procedure number ${p * 7 + 3} in detail.`, `Every operator reads section ${p + 1} before the shift.`];
    const content = `BT /F1 12 Tf 72 720 Td 16 TL ${lines.map((l) => `(${l}) Tj T*`).join(" ")} ET`;
    const page = objects.length + 1;
    objects.push([`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${page + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`]);
    objects.push([`<< /Length ${content.length} >>\nstream\n${content}\nendstream`]);
    kids.push(`${page} 0 R`);
  }
  objects[1] = [`<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages} >>`];
  return pdfOf(objects);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
