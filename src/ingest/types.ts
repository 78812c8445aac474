/** What every extractor returns: a title and the document body as Markdown. */
export type ExtractedDocument = { title: string; markdown: string };

/** Where the bytes came from, for titles and for resolving relative links. */
export type DocumentSource = { url?: string; filename?: string };
