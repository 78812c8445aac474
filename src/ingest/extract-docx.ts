import mammoth from "mammoth";
import type { ExtractionLimits } from "./budget.ts";
import { IngestError } from "./errors.ts";
import type { DocumentSource, ExtractedDocument as Extracted } from "./types.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { firstLineTitle, pickTitle, titleFromName } from "./titles.ts";
import { rezip, unzipBounded } from "./zip-bounded.ts";

/**
 * mammoth maps Word styles to semantic HTML (headings, lists, tables); turndown makes it Markdown. mammoth is
 * given the container as unzipped within the limits (zip-bounded.ts), never the uploaded zip itself.
 */
export async function extractDocx(bytes: Uint8Array, source: DocumentSource, limits: ExtractionLimits): Promise<Extracted> {
  const checked = rezip(unzipBounded(bytes, limits));
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(checked.buffer, checked.byteOffset, checked.byteLength) },
      {
        externalFileAccess: false, // a document must not make us read local files it links to
        convertImage: mammoth.images.imgElement(async () => ({ src: "" })), // dropped by the converter
      },
    );
    html = result.value;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new IngestError("unreadable_document", `could not read the DOCX: ${why}`, { cause: error });
  }
  const markdown = htmlToMarkdown(html);
  const heading = /^#\s+(.+)$/m.exec(markdown)?.[1];
  return { title: pickTitle(heading, firstLineTitle(markdown), titleFromName(source.filename, source.url)), markdown };
}
