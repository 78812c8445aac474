// Documents the tests make: an XLSX written by exceljs; PPTX, EPUB, ODT and ODS packages zipped by fflate from
// XML strings (as the formats define them, with only the parts a reader needs); and zip bombs dressed as an
// XLSX, a PPTX and an EPUB. Nothing here is read by the code under test's own libraries.
import ExcelJS from "exceljs";
import { strToU8, zipSync, type Zippable } from "fflate";
import { buildZipFile, repeatedDeflate, type Declared } from "./bombs";

export const MEDIA = {
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  epub: "application/epub+zip",
  odt: "application/vnd.oasis.opendocument.text",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
} as const;

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const zip = (files: Record<string, string>, mimetype?: string): Uint8Array => {
  // OpenDocument and EPUB: "mimetype" first and stored, as the formats ask.
  const entries: Zippable = mimetype ? { mimetype: [strToU8(mimetype), { level: 0 }] } : {};
  for (const [name, text] of Object.entries(files)) entries[name] = strToU8(text);
  return zipSync(entries);
};

export type Cell = string | number | { formula: string; result: number } | Date;

/** An XLSX of the given sheets (name → rows, first row the header), written by exceljs. */
export async function makeXlsx(sheets: Record<string, Cell[][]>, title?: string): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  if (title) workbook.title = title;
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = workbook.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3"';
const odfMeta = (title: string) => `<?xml version="1.0" encoding="UTF-8"?><office:document-meta ${ODF_NS}><office:meta><dc:title>${esc(title)}</dc:title></office:meta></office:document-meta>`;
const MANIFEST = (type: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="${type}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`;

/** An ODS: each sheet's rows, numbers as float cells (value and shown text); a trailing run of empty rows as LibreOffice writes it. */
export function makeOds(sheets: Record<string, (string | number)[][]>, title = "Spreadsheet"): Uint8Array {
  const cell = (v: string | number) =>
    typeof v === "number" ? `<table:table-cell office:value-type="float" office:value="${v}"><text:p>${v}</text:p></table:table-cell>` : `<table:table-cell office:value-type="string"><text:p>${esc(v)}</text:p></table:table-cell>`;
  const tables = Object.entries(sheets)
    .map(([name, rows]) => `<table:table table:name="${esc(name)}">${rows.map((r) => `<table:table-row>${r.map(cell).join("")}<table:table-cell table:number-columns-repeated="16380"/></table:table-row>`).join("")}<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>`)
    .join("");
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS}><office:body><office:spreadsheet>${tables}</office:spreadsheet></office:body></office:document-content>`;
  const type = "application/vnd.oasis.opendocument.spreadsheet";
  return zip({ "META-INF/manifest.xml": MANIFEST(type), "content.xml": content, "meta.xml": odfMeta(title) }, type);
}

/** An ODT of headings (`# ` and `## ` lines), list items (`- `) and paragraphs. */
export function makeOdt(title: string, lines: string[]): Uint8Array {
  const body = lines
    .map((l) => {
      const h = /^(#+) (.*)$/.exec(l);
      if (h) return `<text:h text:outline-level="${h[1]!.length}">${esc(h[2]!)}</text:h>`;
      if (l.startsWith("- ")) return `<text:list><text:list-item><text:p>${esc(l.slice(2))}</text:p></text:list-item></text:list>`;
      return `<text:p>${esc(l).replace(/ {2}/g, ' <text:s text:c="1"/>')}</text:p>`;
    })
    .join("");
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS}><office:body><office:text>${body}</office:text></office:body></office:document-content>`;
  const type = "application/vnd.oasis.opendocument.text";
  return zip({ "META-INF/manifest.xml": MANIFEST(type), "content.xml": content, "meta.xml": odfMeta(title) }, type);
}

const P_NS = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PPTX_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>`;

export interface Slide {
  title: string;
  bullets: string[];
  notes?: string;
}

/** A PPTX of slides (title placeholder, a body of bullets, a slide-number placeholder, speaker notes). */
export function makePptx(slides: Slide[]): Uint8Array {
  const sp = (ph: string, paragraphs: string[]) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr><p:ph type="${ph}"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs.map((t) => `<a:p><a:r><a:t>${esc(t)}</a:t></a:r></a:p>`).join("")}</p:txBody></p:sp>`;
  const files: Record<string, string> = { "[Content_Types].xml": PPTX_TYPES };
  // Listed in presentation.xml in reverse file order: the deck's order is the list's, not the file names'.
  const order = slides.map((_, i) => slides.length - i);
  slides.forEach((slide, i) => {
    const n = order[i]!;
    files[`ppt/slides/slide${n}.xml`] = `<?xml version="1.0" encoding="UTF-8"?><p:sld ${P_NS}><p:cSld><p:spTree>${sp("title", [slide.title])}${sp("body", slide.bullets)}${sp("sldNum", [String(i + 1)])}</p:spTree></p:cSld></p:sld>`;
    if (slide.notes) {
      files[`ppt/slides/_rels/slide${n}.xml.rels`] = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="${REL}/notesSlide" Target="../notesSlides/notesSlide${n}.xml"/></Relationships>`;
      files[`ppt/notesSlides/notesSlide${n}.xml`] = `<?xml version="1.0" encoding="UTF-8"?><p:notes ${P_NS}><p:cSld><p:spTree>${sp("sldImg", [])}${sp("body", [slide.notes])}</p:spTree></p:cSld></p:notes>`;
    }
  });
  files["ppt/presentation.xml"] = `<?xml version="1.0" encoding="UTF-8"?><p:presentation ${P_NS}><p:sldIdLst>${order.map((n, i) => `<p:sldId id="${256 + i}" r:id="rId${n + 10}"/>`).join("")}</p:sldIdLst></p:presentation>`;
  files["ppt/_rels/presentation.xml.rels"] = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${order.map((n) => `<Relationship Id="rId${n + 10}" Type="${REL}/slide" Target="slides/slide${n}.xml"/>`).join("")}</Relationships>`;
  return zip(files);
}

const CONTAINER = `<?xml version="1.0" encoding="UTF-8"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`;

/** An EPUB 3 of chapters (title → paragraphs), the spine in the given order (the files named the other way round). */
export function makeEpub(title: string, chapters: Record<string, string[]>): Uint8Array {
  const names = Object.keys(chapters);
  const file = (i: number) => `text/part${names.length - i}.xhtml`;
  const files: Record<string, string> = { "META-INF/container.xml": CONTAINER };
  names.forEach((name, i) => {
    files[`OEBPS/${file(i)}`] = `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${esc(name)}</title></head><body><h1>${esc(name)}</h1>${chapters[name]!.map((p) => `<p>${esc(p)}</p>`).join("")}</body></html>`;
  });
  const items = names.map((_, i) => `<item id="c${i}" href="${file(i)}" media-type="application/xhtml+xml"/>`).join("");
  const spine = names.map((_, i) => `<itemref idref="c${i}"/>`).join("");
  files["OEBPS/content.opf"] = `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:test</dc:identifier><dc:title>${esc(title)}</dc:title><dc:language>en</dc:language></metadata><manifest>${items}<item id="pic" href="cover.png" media-type="image/png"/></manifest><spine>${spine}</spine></package>`;
  return zip(files, "application/epub+zip");
}

const MiB = 1024 * 1024;
const stored = (name: string, text: string) => ({ name, data: strToU8(text) });
/** One deflated entry of `mib` MiB of `unit` repeated (about 1 MB compressed per GiB), its size declared as `declared` says. */
const bombEntry = (name: string, head: string, unit: string, tail: string, mib: number, declared: Declared) => {
  const body = strToU8(unit.repeat(Math.floor(MiB / unit.length)));
  const copies = Math.ceil((mib * MiB) / body.length);
  return { name, data: repeatedDeflate(head, body, copies, tail), inflatedSize: head.length + copies * body.length + tail.length, declaredSize: declared === "understated" ? 64 * 1024 : undefined };
};

/** An XLSX whose first sheet inflates to `mib` MiB of rows. */
export function xlsxBomb(mib = 1024, declared: Declared = "truthful"): Uint8Array {
  const types = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`;
  const head = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
  return buildZipFile([stored("[Content_Types].xml", types), bombEntry("xl/worksheets/sheet1.xml", head, `<row><c t="inlineStr"><is><t>bomb</t></is></c></row>`, "</sheetData></worksheet>", mib, declared)]);
}

/** A PPTX whose one slide inflates to `mib` MiB of text runs. */
export function pptxBomb(mib = 1024, declared: Declared = "truthful"): Uint8Array {
  const head = `<?xml version="1.0" encoding="UTF-8"?><p:sld ${P_NS}><p:cSld><p:spTree><p:sp><p:txBody>`;
  return buildZipFile([stored("[Content_Types].xml", PPTX_TYPES), bombEntry("ppt/slides/slide1.xml", head, "<a:p><a:r><a:t>bomb</a:t></a:r></a:p>", "</p:txBody></p:sp></p:spTree></p:cSld></p:sld>", mib, declared)]);
}

/** An EPUB whose one chapter inflates to `mib` MiB of paragraphs. */
export function epubBomb(mib = 1024, declared: Declared = "truthful"): Uint8Array {
  const head = `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><body>`;
  return buildZipFile([stored("mimetype", "application/epub+zip"), stored("META-INF/container.xml", CONTAINER), bombEntry("OEBPS/text/part1.xhtml", head, "<p>bomb paragraph</p>", "</body></html>", mib, declared)]);
}
