import { describe, expect, test } from "bun:test";
import { IngestError, type IngestErrorCode } from "../../src/ingest/errors.ts";
import { extractDocument } from "../../src/ingest/extract.ts";
import { ARTICLE_PAGE, buildDocx, buildPdf, buildZip } from "../support/documents.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const HEAT_PUMPS = `<!doctype html><html><head><title>Heat pumps explained | GreenHome Blog</title></head><body>
<nav><a href="/">Home</a> <a href="/blog">Blog</a> <a href="/shop">Shop</a> <a href="/login">Log in</a></nav>
<div class="cookie">We use cookies to improve your experience. <button>Accept all</button></div>
<main><article>
<h1>Heat pumps explained</h1>
<p class="byline">By Sam Carter · 12 min read</p>
<p>A heat pump moves heat from the outside air into your home, even when it is cold outside. An air-source heat pump can deliver about three units of heat for every unit of electricity it uses.</p>
<h2>How much does a heat pump cost?</h2>
<p>A typical air-source heat pump for a three-bedroom house costs between £8,000 and £12,000 installed. The Boiler Upgrade Scheme gives a grant of £7,500 in England and Wales.</p>
<h2>Do heat pumps work in winter?</h2>
<p>Yes. Modern units keep working down to -20 °C, although their efficiency drops as the temperature falls.</p>
<h2>Maintenance</h2>
<p>Have the unit serviced once a year and keep the outdoor fan clear of leaves and snow.</p>
</article></main>
<footer>© 2026 GreenHome Ltd · Privacy · Terms · Subscribe to our newsletter</footer>
</body></html>`;
const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

async function expectIngestError(promise: Promise<unknown>, code: IngestErrorCode): Promise<IngestError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(IngestError);
    expect((error as IngestError).code).toBe(code);
    return error as IngestError;
  }
  throw new Error(`expected IngestError ${code}, got success`);
}

describe("HTML", () => {
  test("Readability keeps the article and drops navigation, sidebar, footer and scripts", async () => {
    const doc = await extractDocument({
      bytes: bytes(ARTICLE_PAGE),
      contentType: "text/html; charset=utf-8",
      url: "https://bread.example/posts/feeding",
    });
    expect(doc.title).toBe("Feeding a sourdough starter");
    expect(doc.markdown).toContain("living culture of wild yeast");
    expect(doc.markdown).toContain("## How often to feed");
    expect(doc.markdown).toContain("```\nstarter: 50 g\nflour:   50 g\nwater:   50 g\n```");
    expect(doc.markdown).toContain("[the hydration guide](https://bread.example/guides/hydration)");
    expect(doc.markdown).toContain("| Temperature | Feedings per day |\n| --- | --- |\n| 24 °C | 2 |");
    for (const chrome of ["Shop our flour", "About us", "Popular posts", "Ten cake recipes", "newsletter", "trackVisitor"]) {
      expect(doc.markdown).not.toContain(chrome);
    }
  });

  test("a cookie banner beside a short article goes; the byline stays; a recipe's 'cookie' box is content", async () => {
    const page = (extra: string) => HEAT_PUMPS.replace("</article>", `${extra}</article>`);
    const doc = await extractDocument({ bytes: bytes(page("")), contentType: "text/html" });
    expect(doc.markdown).not.toContain("cookies");
    // Readability takes the byline out as metadata: it is put back, first.
    expect(doc.markdown).toStartWith("By Sam Carter · 12 min read\n\nA heat pump moves heat");
    const recipe = await extractDocument({
      bytes: bytes(page('<div class="cookie-recipe"><p>Bake 12 cookies at 180 °C for ten minutes.</p></div>')),
      contentType: "text/html",
    });
    expect(recipe.markdown).toContain("Bake 12 cookies at 180 °C for ten minutes.");
  });

  test("a fragment without article structure still yields its text", async () => {
    const doc = await extractDocument({ bytes: bytes("<p>Short <b>note</b>.</p>"), contentType: "text/html" });
    expect(doc.markdown).toBe("Short **note**.");
    expect(doc.title).toBe("Untitled");
  });

  test("charset from <meta> when the header has none", async () => {
    const latin1 = new Uint8Array([...bytes('<html><head><meta charset="iso-8859-1"><title>Caf'), 0xe9, ...bytes("</title></head><body><p>cr"), 0xe8, ...bytes("me br"), 0xfb, ...bytes("l"), 0xe9, ...bytes("e</p></body></html>")]);
    const doc = await extractDocument({ bytes: latin1, contentType: "text/html" });
    expect(doc.title).toBe("Café");
    expect(doc.markdown).toContain("crème brûlée");
  });
});

describe("DOCX", () => {
  test("a document built with jszip becomes Markdown with its heading as title", async () => {
    const docx = await buildDocx([
      { text: "Quarterly report", style: "Heading1" },
      { text: "Revenue grew by ten percent & costs fell." },
      { text: "Outlook", style: "Heading2" },
      { text: "We expect steady growth next quarter." },
    ]);
    const doc = await extractDocument({ bytes: docx, contentType: DOCX_TYPE, filename: "q3.docx" });
    expect(doc.title).toBe("Quarterly report");
    expect(doc.markdown).toBe(
      "# Quarterly report\n\nRevenue grew by ten percent & costs fell.\n\n## Outlook\n\nWe expect steady growth next quarter.",
    );
  });

  test("detected from octet-stream by extension or by the PK signature", async () => {
    const docx = await buildDocx([{ text: "Plain paragraph only." }]);
    const byName = await extractDocument({ bytes: docx, contentType: "application/octet-stream", filename: "meeting-notes.docx" });
    expect(byName).toEqual({ title: "Plain paragraph only.", markdown: "Plain paragraph only." });
    const byMagic = await extractDocument({ bytes: docx, contentType: "" });
    expect(byMagic.markdown).toBe("Plain paragraph only.");
  });

  test("a zip that is not a DOCX, and truncated bytes, are unreadable", async () => {
    const zip = await buildZip({ "readme.txt": "hello" });
    await expectIngestError(extractDocument({ bytes: zip, contentType: DOCX_TYPE }), "unreadable_document");
    await expectIngestError(extractDocument({ bytes: bytes("PK\x03\x04broken"), contentType: DOCX_TYPE }), "unreadable_document");
  });
});

describe("PDF", () => {
  test("a hand-written PDF 1.4 yields its text and metadata title", async () => {
    const pdf = buildPdf(["Photosynthesis in brief", "Plants turn light (and water) into sugar."], "Plant biology notes");
    const doc = await extractDocument({ bytes: pdf, contentType: "application/pdf" });
    expect(doc.title).toBe("Plant biology notes");
    expect(doc.markdown).toContain("Photosynthesis in brief");
    expect(doc.markdown).toContain("Plants turn light (and water) into sugar.");
  });

  test("title falls back to the first line, detection to the %PDF signature", async () => {
    const pdf = buildPdf(["Meeting minutes", "Decisions were made."]);
    const doc = await extractDocument({ bytes: pdf, contentType: "application/octet-stream", filename: "x.bin" });
    expect(doc.title).toBe("Meeting minutes");
    const mislabelled = await extractDocument({ bytes: pdf, contentType: "text/plain" });
    expect(mislabelled.markdown).toContain("Decisions were made.");
  });

  test("garbage bytes labelled PDF are unreadable, not a crash", async () => {
    const error = await expectIngestError(
      extractDocument({ bytes: bytes("%PDF-1.7 this is not really a pdf at all"), contentType: "application/pdf" }),
      "unreadable_document",
    );
    expect(error.message).toContain("PDF");
    const random = new Uint8Array(4096).map((_, i) => (i * 7919) % 251);
    await expectIngestError(extractDocument({ bytes: random, contentType: "application/pdf" }), "unreadable_document");
  });

  test("a PDF without any text is empty", async () => {
    await expectIngestError(extractDocument({ bytes: buildPdf([]), contentType: "application/pdf" }), "empty_document");
  });
});

describe("Markdown and plain text", () => {
  test("title is the first # heading; front matter title wins and is dropped", async () => {
    const md = "Intro line.\n\n# Release process\n\nTag, build, publish.\n";
    expect(await extractDocument({ bytes: bytes(md), contentType: "text/markdown" })).toEqual({
      title: "Release process",
      markdown: "Intro line.\n\n# Release process\n\nTag, build, publish.",
    });
    const withFrontMatter = '---\ntitle: "Runbook"\ntags: [ops]\n---\n# Heading\n\nBody.';
    const doc = await extractDocument({ bytes: bytes(withFrontMatter), contentType: "text/markdown" });
    expect(doc).toEqual({ title: "Runbook", markdown: "# Heading\n\nBody." });
  });

  test("no heading: the file name; .md served as text/plain is still Markdown", async () => {
    const doc = await extractDocument({ bytes: bytes("Just *some* notes."), contentType: "text/plain; charset=utf-8", filename: "team_notes.md" });
    expect(doc).toEqual({ title: "team notes", markdown: "Just *some* notes." });
    const fromUrl = await extractDocument({ bytes: bytes("## Usage\n\nRun it."), contentType: "text/plain", url: "https://git.example/raw/main/getting-started.md" });
    expect(fromUrl.title).toBe("getting started");
  });

  test("a # heading inside a code fence is not the title", async () => {
    const md = "```sh\n# not a title\n```\n\nText.";
    const doc = await extractDocument({ bytes: bytes(md), contentType: "text/markdown", filename: "script.md" });
    expect(doc.title).toBe("script");
  });

  test("plain text: first short line as title, Markdown syntax escaped", async () => {
    const doc = await extractDocument({ bytes: bytes("Shopping list\r\n\r\n# eggs\r\n```\r\nmilk\r\n"), contentType: "text/plain" });
    expect(doc.title).toBe("Shopping list");
    expect(doc.markdown).toBe("Shopping list\n\n\\# eggs\n\\```\nmilk");
  });

  test("plain text whose first line is a sentence: the file name", async () => {
    const sentence = await extractDocument({ bytes: bytes("The coffee machine needs descaling every Friday.\nUse the blue tablets."), contentType: "text/plain", filename: "coffee_machine.txt" });
    expect(sentence.title).toBe("coffee machine");
    const two = await extractDocument({ bytes: bytes("Read me. It explains the setup\n"), contentType: "text/plain", filename: "notes.txt" });
    expect(two.title).toBe("notes");
    // A short line, or a question, is still a title.
    const question = await extractDocument({ bytes: bytes("How do I reset my password?\nGo to Settings."), contentType: "text/plain", filename: "faq.txt" });
    expect(question.title).toBe("How do I reset my password?");
    const label = await extractDocument({ bytes: bytes("Release 2.4.\nBug fixes."), contentType: "text/plain", filename: "r.txt" });
    expect(label.title).toBe("Release 2.4.");
  });
});

describe("unsupported and empty input", () => {
  test("an image type OCR does not read is unsupported, with a clear message; a cut-off PNG is unreadable", async () => {
    const bmp = new Uint8Array([0x42, 0x4d, 0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0]);
    const error = await expectIngestError(extractDocument({ bytes: bmp, contentType: "image/bmp" }), "unsupported_type");
    expect(error.message).toContain("image/bmp");
    expect(error.message).toContain("supported: HTML, PDF, DOCX, XLSX, ODS, CSV, TSV, PPTX, EPUB, ODT, Markdown, plain text, images (PNG, JPEG, GIF, TIFF, WebP; read with OCR)");
    await expectIngestError(extractDocument({ bytes: bmp, contentType: "application/octet-stream" }), "unsupported_type");
    // Since issue 60 a PNG is read with OCR: one cut off after its signature fails as unreadable.
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const cut = await expectIngestError(extractDocument({ bytes: png, contentType: "image/png" }), "unreadable_document");
    expect(cut.message).toStartWith("could not read the IMAGE document: ");
    const doc = await expectIngestError(extractDocument({ bytes: bytes("x"), contentType: "application/msword" }), "unsupported_type");
    expect(doc.message).toContain(".docx");
  });

  test("documents without text are empty_document", async () => {
    await expectIngestError(extractDocument({ bytes: bytes("  \n\n  "), contentType: "text/plain" }), "empty_document");
    await expectIngestError(extractDocument({ bytes: bytes('<html><body><div id="app"></div><script>render()</script></body></html>'), contentType: "text/html" }), "empty_document");
    await expectIngestError(extractDocument({ bytes: new Uint8Array(0), contentType: "text/markdown" }), "empty_document");
  });
});
