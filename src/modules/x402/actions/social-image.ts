// social/image: a share card (title, a line of text, a footer) as a PNG, laid out by satori, drawn by resvg.
import { el, FAMILY, renderPng, type Node } from "../render/render";
import { fitFontSize } from "../render/text";

export type Theme = "dark" | "light";

export interface CardInput {
  title: string;
  text?: string;
  footer?: string;
  width: number;
  height: number;
  theme: Theme;
}

const THEMES: Record<Theme, { from: string; to: string; accent: string; title: string; body: string; muted: string }> = {
  dark: { from: "#0f172a", to: "#1e3a5f", accent: "#38bdf8", title: "#f8fafc", body: "#cbd5e1", muted: "#94a3b8" },
  light: { from: "#f8fafc", to: "#dbeafe", accent: "#2563eb", title: "#0f172a", body: "#334155", muted: "#64748b" },
};

/** The card as a satori tree; the title takes the largest size at which it fits in three lines. */
export function cardLayout(input: CardInput): Node {
  const { width, height } = input;
  const t = THEMES[input.theme];
  const pad = Math.round(Math.min(width, height) * 0.08);
  const inner = width - 2 * pad;
  const titleSize = fitFontSize(input.title, inner, 3, Math.max(12, Math.round(height / 9)), 12);
  const bodySize = Math.max(10, Math.round(Math.min(titleSize / 2, height / 20)));
  const children: Node[] = [
    el("div", { width: Math.max(24, Math.round(width * 0.1)), height: Math.max(3, Math.round(height * 0.012)), background: t.accent, marginBottom: Math.round(pad * 0.6), flexShrink: 0 }),
    el("div", { display: "block", fontSize: titleSize, fontWeight: 700, lineHeight: 1.2, color: t.title, lineClamp: 3, flexShrink: 0 }, input.title),
  ];
  if (input.text) {
    children.push(
      el("div", { display: "block", fontSize: bodySize, lineHeight: 1.4, color: t.body, marginTop: Math.round(bodySize * 0.8), lineClamp: 6, overflow: "hidden", flexShrink: 1 }, input.text),
    );
  }
  if (input.footer) {
    children.push(
      el("div", { flexGrow: 1 }),
      el("div", { display: "block", paddingTop: Math.round(bodySize / 2), fontSize: bodySize, color: t.muted, lineClamp: 1, flexShrink: 0 }, input.footer),
    );
  }
  return el(
    "div",
    { display: "flex", flexDirection: "column", width: "100%", height: "100%", padding: pad, boxSizing: "border-box", fontFamily: FAMILY, backgroundImage: `linear-gradient(180deg, ${t.from}, ${t.to})` },
    ...children,
  );
}

export function renderCardPng(input: CardInput): Promise<Buffer> {
  return renderPng(cardLayout(input), input.width, input.height);
}
