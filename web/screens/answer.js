// One answer: its text with numbered citation markers, the cited pages list with the same numbers, the thin
// state in plain words, and quota notes. Markers and list entries open the cited page in the side panel.
import { fill, h } from "../lib/dom.js";
import { plural } from "../lib/format.js";
import { markdown, setRefResolver, wikiLink } from "../lib/markdown.js";

/** Which brain of a set a citation comes from: its name and its role (primary or advisor). */
export function citationTag(brain) {
  return h(
    "span",
    { class: "cite-tag" },
    h("span", { class: "visually-hidden" }, " from "),
    h("span", { class: "cite-brain-name" }, brain.name),
    brain.kind ? h("span", { class: `badge ${brain.kind === "primary" ? "public" : ""}` }, h("span", { class: "visually-hidden" }, ", "), brain.kind) : null,
  );
}

/** Streaming text so far (before the citations are known). */
export function drawPartial(answer, text, brainId, brains) {
  const refs = brains ? { resolveRef: setRefResolver([], brains, brainId) } : {};
  fill(answer, markdown(text, { brainId, headingOffset: 2, ...refs }));
}

/**
 * Renders a finished answer into `result`. `openCitation(target, marker)` is called when a marker or a cited
 * page is clicked (without a modifier key: a new tab still opens the wiki page itself).
 */
export function renderAnswer(result, answer, res, { brainId, brains = null, openCitation }) {
  const citations = res.citations ?? [];
  const text = res.answer ?? res.answerMd ?? "";
  const refs = brains ? { resolveRef: setRefResolver(citations, brains, brainId) } : {};
  fill(answer, markdown(text, { brainId, citations, headingOffset: 2, ...refs }));
  const keyOf = (brain, slug) => `${brain}\u0000${slug}`;
  const numbers = new Map(citations.map((c, i) => [keyOf(c.brain?.id ?? brainId, c.slug), i + 1]));
  // Inline citation links become numbered markers tied to the list below (the page title is the marker's name).
  for (const link of answer.querySelectorAll("a.wikilink")) {
    const target = link.dataset.brainId ?? brainId;
    const n = numbers.get(keyOf(target, link.dataset.slug));
    if (!n) continue;
    const c = citations[n - 1];
    const marker = h(
      "a",
      { href: link.getAttribute("href"), class: "wikilink cite-marker", "data-slug": c.slug, "data-brain-id": target, "data-n": n, "aria-label": `Source ${n}: ${c.title || c.slug}${c.brain?.name ? ` from ${c.brain.name}` : ""}` },
      `${n}`,
    );
    link.replaceWith(h("sup", {}, marker));
  }
  const parts = [];
  if (res.thin) {
    parts.push(
      h(
        "div",
        { class: "notice warn", role: "status" },
        h("strong", {}, brains ? "The brains of this set do not know enough to answer. " : "This brain does not know enough to answer. "),
        `Nothing in ${brains ? "their" : "its"} pages supports an answer, so none was made up. Add sources that cover the question, or rephrase it.`,
      ),
    );
  }
  parts.push(answer);
  if (citations.length) {
    parts.push(
      h(
        "section",
        { class: "cited", "aria-label": "Cited pages" },
        h("h3", {}, `Cited pages (${citations.length})`),
        h(
          "ol",
          { class: "citations" },
          citations.map((c, i) => {
            const link = wikiLink(c.brain?.id ?? brainId, c.slug, c.title || c.slug);
            link.dataset.n = String(i + 1);
            link.dataset.brainId = c.brain?.id ?? brainId;
            return h("li", { "data-brain-id": c.brain?.id }, link, c.brain ? citationTag(c.brain) : null);
          }),
        ),
      ),
    );
  }
  const meta = [];
  if (res.advisorContributed !== undefined) meta.push(res.advisorContributed ? "An advisor brain contributed." : "Only the primary brain contributed.");
  if (res.quota && typeof res.quota === "object" && res.quota.remaining !== undefined) meta.push(`${res.quota.remaining} of ${res.quota.limit} questions left this ${res.quota.period}.`);
  else if (typeof res.bank === "number") meta.push(`${plural(res.bank, "question")} left in your bank.`);
  if (meta.length) parts.push(h("p", { class: "muted small" }, meta.join(" ")));
  fill(result, ...parts);
  result.addEventListener("click", (e) => {
    const link = e.target.closest?.("a.wikilink");
    if (!link || !openCitation || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    const n = Number(link.dataset.n);
    if (!n) return; // a plain wiki link in the answer: follow it
    e.preventDefault();
    const c = citations[n - 1];
    openCitation({ brainId: link.dataset.brainId ?? brainId, slug: c.slug, title: c.title, n, sentences: citedSentences(answer, n) }, link);
  });
}

/** The answer's sentences that carry marker `n`: what the side panel highlights in the cited page. */
function citedSentences(answer, n) {
  const out = [];
  for (const marker of answer.querySelectorAll(`a.cite-marker[data-n="${n}"]`)) {
    const block = marker.closest("p, li, blockquote, td") ?? answer;
    // The block's text with markers as «n», split into sentences; keep those holding this marker.
    const text = Array.from(block.childNodes, function flat(node) {
      if (node.nodeType === Node.TEXT_NODE) return node.data;
      if (node.classList?.contains("cite-marker")) return ` «${node.dataset.n}» `;
      return Array.from(node.childNodes, flat).join("");
    }).join("");
    // A marker placed after the full stop belongs to the sentence before it.
    const attached = text.replace(/([.!?])((?:\s*«\d+»)+)/g, "$2$1");
    for (const s of attached.split(/(?<=[.!?])\s+/)) if (s.includes(`«${n}»`)) out.push(s.replace(/«\d+»/g, "").trim());
  }
  return [...new Set(out)];
}
