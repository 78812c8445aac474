// OpenDocument (ODT, ODS) parts: a package's content.xml and meta.xml, and the text of its paragraphs.
import type { ExtractionLimits } from "./budget.ts";
import { IngestError } from "./errors.ts";
import { attrOf, childrenOf, findFirst, parseXml, tagOf, textNode, textOf, type XmlNode } from "./xml-tree.ts";
import { unzipBounded } from "./zip-bounded.ts";

export interface OdfPackage {
  content: XmlNode[];
  /** meta.xml's dc:title, when it has one. */
  title: string | undefined;
}

/** content.xml and meta.xml of an OpenDocument file, unzipped within the limits (pictures left uninflated). */
export function readOdf(bytes: Uint8Array, limits: ExtractionLimits, kind: "ODT" | "ODS"): OdfPackage {
  const entries = unzipBounded(bytes, limits, (name) => name === "content.xml" || name === "meta.xml");
  if (!entries["content.xml"]) throw new IngestError("unreadable_document", `could not read the ${kind}: it has no content.xml`);
  const meta = entries["meta.xml"] ? parseXml(entries["meta.xml"], `the ${kind}'s meta.xml`) : [];
  const title = textOf(childrenOf(findFirst(meta, "title") ?? {})).trim() || undefined;
  return { content: parseXml(entries["content.xml"], `the ${kind}'s content.xml`), title };
}

/** A paragraph's text: spans and links as their text, `<text:s c="3"/>` as spaces, tabs and breaks as spaces. */
export function odfText(nodes: XmlNode[]): string {
  let out = "";
  for (const node of nodes) {
    const text = textNode(node);
    if (text !== undefined) {
      out += text;
      continue;
    }
    switch (tagOf(node)) {
      case "s":
        out += " ".repeat(Math.min(Number(attrOf(node, "c") ?? 1) || 1, 100));
        break;
      case "tab":
      case "line-break":
        out += " ";
        break;
      case "note": // a footnote's text goes where its citation is, in brackets
        out += ` (${odfText(childrenOf(findFirst(childrenOf(node), "note-body") ?? {})).trim()})`;
        break;
      case "annotation": // a reviewer's comment is no part of the text
      case "bookmark":
        break;
      default:
        out += odfText(childrenOf(node));
    }
  }
  return out;
}
