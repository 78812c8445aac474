/**
 * What every extractor returns: a title and the document body as Markdown. `pagePerSection`: each top-level
 * section is a page of its own however short (a workbook's sheets: one table of rows per page).
 */
export type ExtractedDocument = { title: string; markdown: string; pagePerSection?: true };

/** Where the bytes came from, for titles and for resolving relative links. */
export type DocumentSource = { url?: string; filename?: string };
