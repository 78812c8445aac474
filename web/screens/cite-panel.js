// The citation side panel: the cited page beside the answer (a sheet over it on phones), the answer's
// sentences that cite it highlighted in the page. The answer stays where it was.
import { add, fill, h } from "../lib/dom.js";
import { showPage } from "./wiki.js";

const STOP = new Set("the and for are was were with that this from into over than then they them their there these those have has had not but its his her our your you who what when where which while how why all any can could would should will may might been being also about after before more most other some such only very".split(" "));
const words = (s) => (s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP.has(w));

/** Wraps the page's sentences that share most of their words with the cited answer sentences in <mark>. */
export function highlightCited(root, sentences) {
  const cited = new Set(sentences.flatMap(words));
  if (!cited.size) return 0;
  const candidates = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest("h1, h2, h3, h4, .backlinks, .page-meta, .page-actions, mark")) continue;
    for (const m of node.data.matchAll(/[^.!?]+[.!?]*/g)) {
      const ws = words(m[0]);
      if (ws.length < 3) continue;
      const share = ws.filter((w) => cited.has(w)).length / ws.length;
      candidates.push({ node, start: m.index, end: m.index + m[0].length, share });
    }
  }
  const best = Math.max(0, ...candidates.map((c) => c.share));
  const chosen = candidates.filter((c) => c.share >= 0.5 || (c.share === best && best >= 0.25));
  // Wrap in reverse document order, so the offsets of earlier sentences in the same text node stay valid.
  for (const c of chosen.toReversed()) {
    const text = c.node.data.slice(c.start, c.end).replace(/\s+$/, "");
    if (!text.trim()) continue;
    const range = document.createRange();
    range.setStart(c.node, c.start);
    range.setEnd(c.node, c.start + text.length);
    const mark = h("mark", { class: "cited-sentence" });
    range.surroundContents(mark);
  }
  return chosen.length;
}

/** A side panel bound to one answer area; `open(target, from)` shows a cited page, Escape or Close hides it. */
export function citationPanel(signal) {
  const body = h("div", { class: "cite-panel-body prose" });
  const close = h("button", { type: "button", class: "secondary small" }, "Close");
  const title = h("h2", { class: "cite-panel-title", tabindex: "-1" }, "Cited page");
  const panel = h("aside", { class: "cite-panel card", "aria-labelledby": "cite-panel-title", hidden: true }, h("div", { class: "row spread" }, title, close), body);
  title.id = "cite-panel-title";
  let returnTo = null;
  const hide = () => {
    panel.hidden = true;
    panel.parentElement?.classList.remove("with-panel");
    returnTo?.focus();
  };
  close.addEventListener("click", hide);
  panel.addEventListener("keydown", (e) => e.key === "Escape" && hide());
  const open = async (target, from) => {
    returnTo = from;
    panel.hidden = false;
    panel.parentElement?.classList.add("with-panel");
    fill(title, `Source ${target.n}`);
    const article = h("div");
    fill(body, article);
    title.focus();
    const page = await showPage(article, { id: target.brainId }, target.slug, signal, { compact: true });
    if (!page) return;
    const marked = highlightCited(article.querySelector(".page-body") ?? article, target.sentences);
    if (marked) article.querySelector("mark.cited-sentence")?.scrollIntoView({ block: "center" });
    add(body, [h("p", { class: "muted small" }, marked ? "Highlighted: the sentences the answer relies on." : "The answer draws on this page as a whole.")]);
  };
  return { panel, open };
}
