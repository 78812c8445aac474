// The XML parts of zip-based documents (OpenDocument, PowerPoint, EPUB packages) as an ordered tree, so
// mixed content (text, spans, line breaks) keeps its order. Namespace prefixes are dropped: files name them
// as they like, the local names are what the formats define.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { IngestError } from "./errors.ts";

export type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

/** `what` names the part in the error ("the ODT's content.xml"). Entity declarations are refused outright. */
export function parseXml(xml: Uint8Array | string, what: string): XmlNode[] {
  const text = typeof xml === "string" ? xml : new TextDecoder().decode(xml);
  // A document needs no entities of its own; declared ones are how "billion laughs" bombs expand.
  if (/<!ENTITY/i.test(text.slice(0, 64 * 1024))) throw new IngestError("unreadable_document", `could not read ${what}: it declares XML entities`);
  // The parser takes a damaged part as it comes (a tag left open reads as closed): the validator tells.
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new IngestError("unreadable_document", `could not read ${what}: ${valid.err.msg} (line ${valid.err.line})`);
  try {
    return parser.parse(text) as XmlNode[];
  } catch (error) {
    throw new IngestError("unreadable_document", `could not read ${what}: ${(error as Error).message}`, { cause: error });
  }
}

export function tagOf(node: XmlNode): string {
  for (const key in node) if (key !== ":@") return key;
  return "";
}

export function childrenOf(node: XmlNode): XmlNode[] {
  const value = node[tagOf(node)];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

export function attrOf(node: XmlNode, name: string): string | undefined {
  return (node[":@"] as Record<string, string> | undefined)?.[name];
}

export const textNode = (node: XmlNode): string | undefined => (typeof node["#text"] === "string" ? (node["#text"] as string) : undefined);

/** The first element named `tag` at or below `nodes`, depth first. */
export function findFirst(nodes: XmlNode[], tag: string): XmlNode | undefined {
  for (const node of nodes) {
    if (tagOf(node) === tag) return node;
    const below = findFirst(childrenOf(node), tag);
    if (below) return below;
  }
  return undefined;
}

/** Every element named `tag` below `nodes` (not below a match), in document order. */
export function findAll(nodes: XmlNode[], tag: string, out: XmlNode[] = []): XmlNode[] {
  for (const node of nodes) {
    if (tagOf(node) === tag) out.push(node);
    else findAll(childrenOf(node), tag, out);
  }
  return out;
}

/** All the text below `nodes`, concatenated. */
export function textOf(nodes: XmlNode[]): string {
  let out = "";
  for (const node of nodes) out += textNode(node) ?? textOf(childrenOf(node));
  return out;
}
