import { posix } from "node:path";
import type { ExtractionLimits } from "./budget.ts";
import { IngestError } from "./errors.ts";
import { sheetMarkdown } from "./extract-table.ts";
import { pickTitle, titleFromName } from "./titles.ts";
import type { DocumentSource, ExtractedDocument as Extracted } from "./types.ts";
import { attrOf, childrenOf, findAll, findFirst, parseXml, tagOf, textOf, type XmlNode } from "./xml-tree.ts";
import { unzipBounded, type ZipEntries } from "./zip-bounded.ts";

/** The XML a deck's text is in; pictures, media and fonts stay uninflated. */
const WANTED = /^(?:ppt\/(?:presentation\.xml|_rels\/presentation\.xml\.rels|slides\/|notesSlides\/)|docProps\/core\.xml$)/;
const TITLE_PLACEHOLDERS = new Set(["title", "ctrTitle"]);
/** Placeholders that repeat on every slide or stand for the slide itself: no text of its own. */
const CHROME_PLACEHOLDERS = new Set(["sldNum", "dt", "ftr", "hdr", "sldImg"]);

/**
 * A PowerPoint deck, one section per slide in the deck's order: `## <slide title>` (or "Slide N"), its text
 * boxes (a box of several paragraphs as a list), its tables, and its speaker notes.
 */
export function extractPptx(bytes: Uint8Array, source: DocumentSource, limits: ExtractionLimits): Extracted {
  const entries = unzipBounded(bytes, limits, (name) => WANTED.test(name));
  const slides = slideOrder(entries).map((path, i) => slideMarkdown(entries, path, i + 1)).filter(Boolean);
  const core = entries["docProps/core.xml"] ? parseXml(entries["docProps/core.xml"], "the PPTX's core properties") : [];
  const deckTitle = textOf(childrenOf(findFirst(core, "title") ?? {})).trim();
  const firstSlideTitle = /^## (.+)$/m.exec(slides[0] ?? "")?.[1];
  return { title: pickTitle(deckTitle, firstSlideTitle, titleFromName(source.filename, source.url)), markdown: slides.join("\n\n") };
}

/** Slide parts in the order presentation.xml lists them (its relationships name the files). */
function slideOrder(entries: ZipEntries): string[] {
  const presentation = entries["ppt/presentation.xml"];
  if (!presentation) throw new IngestError("unreadable_document", "could not read the PPTX: it has no ppt/presentation.xml");
  const targets = relationships(entries, "ppt/presentation.xml");
  parseXml(presentation, "the PPTX's presentation.xml"); // well-formed, or the deck is damaged
  // The relationship id is the prefixed r:id beside the slide's own numeric id (the tree drops prefixes).
  const ids = Array.from(new TextDecoder().decode(presentation).matchAll(/<(?:\w+:)?sldId\b[^>]*?\s\w+:id="([^"]+)"/g), (m) => m[1]);
  return ids.flatMap((id) => (id && targets[id] && entries[targets[id]!] ? [targets[id]!] : []));
}

/** A part's relationships: id → the target's path in the zip. `type` (its last segment) filters them. */
function relationships(entries: ZipEntries, part: string, type?: string): Record<string, string> {
  const relsPath = posix.join(posix.dirname(part), "_rels", `${posix.basename(part)}.rels`);
  const rels = entries[relsPath];
  if (!rels) return {};
  const out: Record<string, string> = {};
  for (const rel of findAll(parseXml(rels, `the PPTX's ${relsPath}`), "Relationship")) {
    const id = attrOf(rel, "Id");
    const target = attrOf(rel, "Target");
    if (!id || !target || attrOf(rel, "TargetMode") === "External") continue;
    if (type && !attrOf(rel, "Type")?.endsWith(`/${type}`)) continue;
    out[id] = target.startsWith("/") ? target.slice(1) : posix.normalize(posix.join(posix.dirname(part), target));
  }
  return out;
}

function slideMarkdown(entries: ZipEntries, path: string, number: number): string {
  const shapes = shapesOf(parseXml(entries[path]!, `the PPTX's ${path}`));
  const title = shapes.find((s) => s.placeholder && TITLE_PLACEHOLDERS.has(s.placeholder))?.paragraphs.join(" ");
  const body = shapes
    .filter((s) => !(s.placeholder && (TITLE_PLACEHOLDERS.has(s.placeholder) || CHROME_PLACEHOLDERS.has(s.placeholder))))
    .map((s) => s.table ?? (s.paragraphs.length > 1 ? s.paragraphs.map((p) => `- ${p}`).join("\n") : (s.paragraphs[0] ?? "")))
    .filter(Boolean);
  const notesPath = Object.values(relationships(entries, path, "notesSlide"))[0];
  const notes = notesPath && entries[notesPath] ? notesOf(entries[notesPath]!, notesPath) : "";
  if (!title && body.length === 0 && !notes) return "";
  return [`## ${title || `Slide ${number}`}`, ...body, ...(notes ? [`Speaker notes: ${notes}`] : [])].join("\n\n");
}

function notesOf(xml: Uint8Array, path: string): string {
  return shapesOf(parseXml(xml, `the PPTX's ${path}`))
    .filter((s) => !(s.placeholder && CHROME_PLACEHOLDERS.has(s.placeholder)))
    .flatMap((s) => s.paragraphs)
    .join(" ");
}

interface Shape {
  placeholder?: string;
  paragraphs: string[];
  table?: string;
}

/** Text shapes (in groups too) and tables of a slide's shape tree, in order. */
function shapesOf(slide: XmlNode[]): Shape[] {
  const tree = findFirst(slide, "spTree");
  const out: Shape[] = [];
  const visit = (nodes: XmlNode[]) => {
    for (const node of nodes) {
      const tag = tagOf(node);
      if (tag === "grpSp") visit(childrenOf(node));
      else if (tag === "sp") {
        const ph = findFirst(childrenOf(findFirst(childrenOf(node), "nvSpPr") ?? {}), "ph");
        const placeholder = ph ? (attrOf(ph, "type") ?? "body") : undefined;
        out.push({ placeholder, paragraphs: paragraphsOf(findFirst(childrenOf(node), "txBody")) });
      } else if (tag === "graphicFrame") {
        const table = findFirst(childrenOf(node), "tbl");
        if (table) out.push({ paragraphs: [], table: tableOf(table) });
      }
    }
  };
  visit(tree ? childrenOf(tree) : []);
  return out;
}

function paragraphsOf(body: XmlNode | undefined): string[] {
  if (!body) return [];
  return findAll(childrenOf(body), "p")
    .map((p) => runsOf(childrenOf(p)).replace(/\s+/g, " ").trim())
    .filter(Boolean);
}

/** A paragraph's runs and fields; a line break is a space. */
function runsOf(nodes: XmlNode[]): string {
  let out = "";
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === "r" || tag === "fld") out += textOf(childrenOf(findFirst(childrenOf(node), "t") ?? {}));
    else if (tag === "br") out += " ";
  }
  return out;
}

function tableOf(table: XmlNode): string {
  const rows = findAll(childrenOf(table), "tr").map((tr) => findAll(childrenOf(tr), "tc").map((tc) => paragraphsOf(findFirst(childrenOf(tc), "txBody")).join(" ")));
  return sheetMarkdown(undefined, rows);
}
