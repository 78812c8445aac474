import type { ExtractionLimits } from "./budget.ts";
import { cellText, sheetMarkdown } from "./extract-table.ts";
import { odfText, readOdf } from "./odf.ts";
import { firstLineTitle, pickTitle, titleFromName } from "./titles.ts";
import type { DocumentSource, ExtractedDocument as Extracted } from "./types.ts";
import { attrOf, childrenOf, findFirst, tagOf, type XmlNode } from "./xml-tree.ts";

/** Wrappers whose content is the document's own flow: sections, change-tracked regions, indexes' bodies. */
const TRANSPARENT = new Set(["section", "index-body", "table-of-content", "soft-page-break", "tracked-changes"]);

/** An OpenDocument text: headings by outline level, paragraphs, lists and tables as Markdown. */
export function extractOdt(bytes: Uint8Array, source: DocumentSource, limits: ExtractionLimits): Extracted {
  const odf = readOdf(bytes, limits, "ODT");
  const body = findFirst(childrenOf(findFirst(odf.content, "body") ?? {}), "text");
  const markdown = blocksOf(body ? childrenOf(body) : []).join("\n\n");
  const heading = /^#\s+(.+)$/m.exec(markdown)?.[1];
  return { title: pickTitle(odf.title, heading, firstLineTitle(markdown), titleFromName(source.filename, source.url)), markdown };
}

function blocksOf(nodes: XmlNode[]): string[] {
  const blocks: string[] = [];
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === "h") {
      const level = Math.min(6, Math.max(1, Number(attrOf(node, "outline-level") ?? 1) || 1));
      const text = clean(odfText(childrenOf(node)));
      if (text) blocks.push(`${"#".repeat(level)} ${text}`);
    } else if (tag === "p") {
      const text = clean(odfText(childrenOf(node)));
      if (text) blocks.push(text);
    } else if (tag === "list") {
      const items = listItems(node, 0);
      if (items.length) blocks.push(items.join("\n"));
    } else if (tag === "table") {
      const table = sheetMarkdown(undefined, tableRows(node));
      if (table) blocks.push(table);
    } else if (TRANSPARENT.has(tag)) {
      if (tag !== "tracked-changes") blocks.push(...blocksOf(childrenOf(node)));
    }
  }
  return blocks;
}

function listItems(list: XmlNode, depth: number): string[] {
  const out: string[] = [];
  for (const item of childrenOf(list)) {
    if (tagOf(item) !== "list-item" && tagOf(item) !== "list-header") continue;
    for (const part of childrenOf(item)) {
      const tag = tagOf(part);
      if (tag === "list") out.push(...listItems(part, depth + 1));
      else if (tag === "p" || tag === "h") {
        const text = clean(odfText(childrenOf(part)));
        if (text) out.push(`${"  ".repeat(depth)}- ${text}`);
      }
    }
  }
  return out;
}

function tableRows(table: XmlNode): string[][] {
  const rows: string[][] = [];
  for (const node of childrenOf(table)) {
    const tag = tagOf(node);
    if (tag === "table-header-rows" || tag === "table-rows") rows.push(...tableRows(node));
    if (tag !== "table-row") continue;
    rows.push(childrenOf(node).filter((c) => tagOf(c) === "table-cell").map((c) => cellText(blocksOf(childrenOf(c)).join(" "))));
  }
  return rows;
}

const clean = (text: string) => text.replace(/\s+/g, " ").trim();
