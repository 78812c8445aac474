// How a page read with OCR says so: a quoted line above its text, kept in the page a reader sees (and in the
// wiki page synthesized from it), because recognized text may hold errors a text layer never has.

export function ocrNote(where: string): string {
  return `> _Text read by OCR (optical character recognition) from ${where}: it may hold recognition errors._`;
}
