import JSZip from "jszip";

/** Test documents built from scratch, so the extraction tests need no binary fixtures. */

const encoder = new TextEncoder();

/** A line of a built PDF: its text, font size (14 by default) and the space above it (18 points by default). */
export type PdfLineSpec = string | { text: string; size?: number; gap?: number };

/**
 * A minimal PDF 1.4: one page, Helvetica, one text line per entry, optional /Info title.
 * Offsets in the cross-reference table are computed from the bytes actually written.
 */
export function buildPdf(lines: PdfLineSpec[], title?: string): Uint8Array {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  let y = 738;
  const placed = lines.map((spec) => {
    const { text, size = 14, gap = 18 } = typeof spec === "string" ? { text: spec } : spec;
    y -= gap;
    return `/F1 ${size} Tf 1 0 0 1 72 ${y} Tm (${escape(text)}) Tj`;
  });
  const content = `BT ${placed.join(" ")} ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${encoder.encode(content).length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  if (title !== undefined) objects.push(`<< /Title (${escape(title)}) /Producer (brainbox tests) >>`);

  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(encoder.encode(pdf).length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefOffset = encoder.encode(pdf).length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  const info = title !== undefined ? ` /Info ${objects.length} 0 R` : "";
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${info} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return encoder.encode(pdf);
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** A minimal DOCX: [Content_Types].xml, _rels/.rels and word/document.xml. `style` maps to mammoth headings. */
export async function buildDocx(paragraphs: Array<{ text: string; style?: string }>): Promise<Uint8Array> {
  const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const body = paragraphs
    .map(({ text, style }) => {
      const props = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : "";
      return `<w:p>${props}<w:r><w:t xml:space="preserve">${xmlText(text)}</w:t></w:r></w:p>`;
    })
    .join("");
  const zip = new JSZip();
  zip.file(
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`,
  );
  zip.file(
    "_rels/.rels",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`,
  );
  zip.file("word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${W}><w:body>${body}</w:body></w:document>`);
  return zip.generateAsync({ type: "uint8array" });
}

export async function buildZip(files: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(files)) zip.file(name, text);
  return zip.generateAsync({ type: "uint8array" });
}

/** A blog-like page: navigation, sidebar and footer around one article. */
export const ARTICLE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Feeding a sourdough starter | The Bread Site</title></head>
<body>
<header><a href="/">The Bread Site</a>
  <nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/shop">Shop our flour</a></li><li><a href="/about">About us</a></li></ul></nav>
</header>
<aside class="sidebar"><h3>Popular posts</h3><ul><li><a href="/p/1">Ten cake recipes</a></li><li><a href="/p/2">Our new bakery</a></li></ul></aside>
<main><article>
  <h1>Feeding a sourdough starter</h1>
  <p>A sourdough starter is a living culture of wild yeast and lactic acid bacteria. It needs regular meals of flour
  and water to stay active, and the rhythm of those meals decides how sour your bread will taste.
  See <a href="/guides/hydration">the hydration guide</a> for the ratios we use.</p>
  <h2>How often to feed</h2>
  <p>At room temperature, feed the starter twice a day: discard all but a small amount, then add equal weights of
  flour and water. In the refrigerator, once a week is enough, because the cold slows fermentation down a lot.</p>
  <pre><code>starter: 50 g
flour:   50 g
water:   50 g</code></pre>
  <p>Watch the jar: a healthy starter doubles within four to eight hours after a feeding and smells pleasantly tangy.
  If it smells of acetone, it is hungry and needs feeding more often.</p>
  <table><tr><th>Temperature</th><th>Feedings per day</th></tr><tr><td>24 °C</td><td>2</td></tr><tr><td>4 °C</td><td>1 per week</td></tr></table>
</article></main>
<footer><p>Copyright 2024 The Bread Site. Subscribe to our newsletter for weekly offers.</p></footer>
<script>trackVisitor()</script>
</body></html>`;
