// One brain: its header and tabs. A brain that does not exist (or is not readable) gets a heading, a plain
// explanation and a way back, never a bare error box.
import { API, ApiError, api, brainRole, enc } from "../lib/api.js";
import { add, h } from "../lib/dom.js";
import { plural } from "../lib/format.js";
import { askTab } from "./ask.js";
import { connectorsTab } from "./connectors.js";
import { contextTab } from "./context.js";
import { graphTab } from "./graph.js";
import { settingsTab } from "./settings.js";
import { sourcesTab } from "./sources.js";
import { wikiTab } from "./wiki.js";

/** Tabs of one brain. `role: "editor"` tabs show only to its editors and owners, `role: "owner"` to its owners. */
const BRAIN_TABS = [
  { id: "sources", label: "Sources", render: sourcesTab },
  { id: "connectors", label: "Connectors", render: connectorsTab },
  { id: "wiki", label: "Wiki", render: wikiTab },
  { id: "graph", label: "Graph", render: graphTab },
  { id: "ask", label: "Ask", render: askTab },
  { id: "context", label: "Context", render: contextTab },
  { id: "settings", label: "Settings", render: settingsTab, role: "editor" },
];

export async function brainScreen(view, brainId, tabId, rest, signal) {
  let brain;
  try {
    ({ brain } = await api(API.brain(brainId), { signal }));
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    add(view, [
      h("div", { class: "crumbs" }, h("a", { href: "#/" }, "Brains"), " / "),
      h("h1", { tabindex: "-1" }, "No such brain"),
      h("p", {}, "This brain does not exist, was deleted, or belongs to another account and is private."),
      h("p", {}, h("a", { href: "#/", class: "button" }, "Back to your brains")),
    ]);
    return;
  }
  // The caller's role (issue 56): editors change sources and pages, owners also the settings and sharing.
  const role = brainRole(brain);
  const isOwner = role === "owner";
  const owned = role !== "viewer";
  const tabs = BRAIN_TABS.filter((t) => !t.role || (t.role === "editor" ? owned : isOwner));
  const tab = tabs.find((t) => t.id === tabId);
  const strip = h(
    "nav",
    { class: "tabs", "aria-label": "Brain sections" },
    tabs.map((t) => h("a", { href: `#/brains/${enc(brain.id)}/${t.id}`, "aria-current": t.id === tabId ? "page" : null }, t.label)),
  );
  add(view, [
    h("div", { class: "crumbs" }, h("a", { href: "#/" }, "Brains"), " / "),
    h(
      "div",
      { class: "page-head" },
      h("h1", { tabindex: "-1" }, `${brain.emoji ? `${brain.emoji} ` : ""}${brain.name}`),
      h("span", { class: `badge ${brain.visibility}` }, brain.visibility),
      isOwner ? null : h("span", { class: "badge" }, owned ? "editor: shared with you" : brain.role === "viewer" && brain.visibility !== "public" ? "read-only: shared with you" : "read-only: another account's brain"),
      h("span", { class: "muted small", id: "brain-source-count" }, plural(brain.sourceCount ?? 0, "source")),
    ),
    h("div", { class: "tabs-wrap" }, strip),
  ]);
  scrollHints(strip, signal);
  const panel = h("div", { class: "stack" });
  view.append(panel);
  if (!tab) return add(panel, [h("p", {}, "No such section. "), h("a", { href: `#/brains/${enc(brain.id)}` }, "Back to the sources")]);
  await tab.render(panel, brain, rest, signal, owned);
}

/** A tab strip wider than the screen shows a fade on the side that has more tabs, and keeps the current tab in view. */
function scrollHints(strip, signal) {
  const wrap = () => strip.parentElement;
  const update = () => {
    wrap()?.classList.toggle("more-left", strip.scrollLeft > 2);
    wrap()?.classList.toggle("more-right", strip.scrollLeft + strip.clientWidth < strip.scrollWidth - 2);
  };
  strip.addEventListener("scroll", update, { passive: true });
  requestAnimationFrame(() => {
    strip.querySelector("[aria-current]")?.scrollIntoView({ block: "nearest", inline: "nearest" });
    update();
  });
  addEventListener("resize", update, { passive: true, signal });
}
