import TurndownService from "turndown";

/** One shared converter: building a TurndownService compiles its rule set, so do it once. */
let converter: TurndownService | undefined;

export function htmlToMarkdown(html: string): string {
  converter ??= createConverter();
  return converter.turndown(html);
}

function createConverter(): TurndownService {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "_",
    hr: "---",
  });
  service.remove(["script", "style", "noscript", "iframe", "object", "embed", "form", "button", "select", "textarea"]);
  // Inline images (data: URIs, DOCX pictures) would put megabytes of base64 into the wiki.
  service.addRule("dropInlineImages", {
    filter: (node) => node.nodeName === "IMG" && /^(data:|$)/i.test(node.getAttribute("src") ?? ""),
    replacement: () => "",
  });
  // Core turndown flattens tables into loose paragraphs; keep rows and cells apart (GFM pipe tables).
  service.addRule("pipeTables", {
    filter: "table",
    replacement: (_content, node) => `\n\n${tableToMarkdown(node as HTMLElement)}\n\n`,
  });
  return service;
}

function tableToMarkdown(table: HTMLElement): string {
  const rows = Array.from(table.querySelectorAll("tr"))
    .map((row) => Array.from(row.children).map((cell) => cellText(cell.textContent ?? "")))
    .filter((cells) => cells.length > 0);
  if (rows.length === 0) return "";
  const width = Math.max(...rows.map((cells) => cells.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? "").join(" | ")} |`;
  const [head, ...body] = rows;
  return [line(head!), line(Array<string>(width).fill("---")), ...body.map(line)].join("\n");
}

function cellText(text: string): string {
  return text.replace(/\s+/g, " ").trim().replace(/\|/g, "\\|");
}
