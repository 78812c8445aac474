// Sizing text before layout: satori wraps and clamps lines itself, but a title should first be given a size
// at which it can fit. Widths are estimates in ems (bold Latin about 0.6, CJK and other wide characters a full em).

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}]/u;

/** Estimated width of `text` in ems. */
export function emWidth(text: string): number {
  let ems = 0;
  for (const char of text) ems += WIDE.test(char) ? 1 : 0.6;
  return ems;
}

/** The largest size from `max` down to `min` at which `text` is estimated to fit `lines` lines of `width` px. */
export function fitFontSize(text: string, width: number, lines: number, max: number, min: number): number {
  const ems = emWidth(text);
  let size = max;
  // A line fills to about 85% before a word wraps.
  while (size > min && ems * size > width * lines * 0.85) size = Math.max(min, Math.floor(size * 0.92));
  return size;
}
