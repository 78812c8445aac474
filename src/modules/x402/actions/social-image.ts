// social/image: a share card (title, a line of text, a footer) as a PNG, drawn with the embedded font.
import { IndexedCanvas, lineHeight, ramp, rgb, wrapText, type Rgb } from "../render/canvas";
import { encodePng } from "../render/png";

export type Theme = "dark" | "light";

export interface CardInput {
  title: string;
  text?: string;
  footer?: string;
  width: number;
  height: number;
  theme: Theme;
}

const GRADIENT_STEPS = 24;
const THEMES: Record<Theme, { from: string; to: string; accent: string; title: string; body: string; muted: string }> = {
  dark: { from: "#0f172a", to: "#1e3a5f", accent: "#38bdf8", title: "#f8fafc", body: "#cbd5e1", muted: "#94a3b8" },
  light: { from: "#f8fafc", to: "#dbeafe", accent: "#2563eb", title: "#0f172a", body: "#334155", muted: "#64748b" },
};

/** Palette indices after the gradient bands. */
const ACCENT = GRADIENT_STEPS;
const TITLE = GRADIENT_STEPS + 1;
const BODY = GRADIENT_STEPS + 2;
const MUTED = GRADIENT_STEPS + 3;

export function cardPalette(theme: Theme): Rgb[] {
  const t = THEMES[theme];
  return [...ramp(rgb(t.from), rgb(t.to), GRADIENT_STEPS), rgb(t.accent), rgb(t.title), rgb(t.body), rgb(t.muted)];
}

/** Draws the card; the title takes the largest scale at which it fits in three lines. */
export function drawCard(input: CardInput): IndexedCanvas {
  const { width, height } = input;
  const canvas = new IndexedCanvas(width, height, cardPalette(input.theme));
  canvas.verticalGradient(0, GRADIENT_STEPS);
  const pad = Math.round(Math.min(width, height) * 0.08);
  const inner = width - 2 * pad;
  canvas.rect(pad, pad, Math.max(24, Math.round(width * 0.1)), Math.max(3, Math.round(height * 0.012)), ACCENT);

  let titleScale = Math.max(1, Math.floor(height / 80));
  let titleLines = wrapText(input.title, inner, titleScale, 3);
  while (titleScale > 1 && wrapText(input.title, inner, titleScale, 99).length > 3) {
    titleScale--;
    titleLines = wrapText(input.title, inner, titleScale, 3);
  }
  const bodyScale = Math.max(1, Math.floor(titleScale / 2));
  const footerHeight = input.footer ? lineHeight(bodyScale) : 0;
  let y = pad + Math.max(3, Math.round(height * 0.012)) + Math.round(pad * 0.6);
  for (const line of titleLines) {
    canvas.text(line, pad, y, titleScale, TITLE);
    y += lineHeight(titleScale);
  }
  if (input.text) {
    y += Math.round(lineHeight(bodyScale) * 0.6);
    const room = Math.floor((height - pad - footerHeight - y) / lineHeight(bodyScale)) - 1;
    for (const line of wrapText(input.text, inner, bodyScale, Math.max(0, Math.min(room, 6)))) {
      canvas.text(line, pad, y, bodyScale, BODY);
      y += lineHeight(bodyScale);
    }
  }
  if (input.footer) canvas.text(wrapText(input.footer, inner, bodyScale, 1)[0] ?? "", pad, height - pad - lineHeight(bodyScale) + 2 * bodyScale, bodyScale, MUTED);
  return canvas;
}

export function renderCardPng(input: CardInput): Buffer {
  return encodePng(drawCard(input));
}
