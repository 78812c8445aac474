// How a page read with OCR says so: a quoted line above its text, kept in the page a reader sees (and in the
// wiki page synthesized from it), because recognized text may hold errors a text layer never has. Like the
// Source and Related lines, it is generated, not the document's words: concepts, answers and the search
// index pass over it (markdown-prose.ts, search-text.ts), so "OCR" does not become a concept of every scan.

export function ocrNote(where: string): string {
  return `> _Text read by OCR (optical character recognition) from ${where}: it may hold recognition errors._`;
}

/** The note as a line (with or without its quote marker), for the regular expressions of generated lines. */
export const OCR_NOTE_PATTERN = String.raw`(?:>\s?)?_Text read by OCR \(optical character recognition\) from [^\n]*?: it may hold recognition errors\._`;
