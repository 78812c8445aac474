// The brain as a graph (cytoscape, served from this server): pages as nodes (concepts as diamonds), links as
// edges; zoom, search, click a node to open its page. A large brain shows its best-linked pages, centred;
// `?around=slug` shows one page and its neighbours.
import { API, ApiError, api, enc, missingRoute } from "../lib/api.js";
import { add, fill, h } from "../lib/dom.js";
import { errorBox, showError } from "../lib/forms.js";
import { plural } from "../lib/format.js";
import { wikiHash } from "../lib/markdown.js";
import { routeQuery } from "../lib/router.js";

/** Above this many nodes the force layout is too slow for a browser tab: rings by degree instead. */
const FORCE_LAYOUT_MAX = 250;

export async function graphTab(panel, brain, _rest, signal) {
  const around = routeQuery().get("around");
  const box = errorBox();
  const status = h("p", { class: "muted small", role: "status" });
  const search = h("input", { type: "search", placeholder: "Find a page", "aria-label": "Find a page in the graph", list: "graph-titles" });
  const titles = h("datalist", { id: "graph-titles" });
  const zoomIn = h("button", { type: "button", class: "secondary small", "aria-label": "Zoom in" }, "+");
  const zoomOut = h("button", { type: "button", class: "secondary small", "aria-label": "Zoom out" }, "−");
  const fit = h("button", { type: "button", class: "secondary small" }, "Fit");
  const canvas = h("div", { class: "graph-canvas", role: "img", "aria-label": `Graph of the pages of ${brain.name}` });
  const legend = h("p", { class: "muted small graph-legend" }, h("span", { class: "dot" }), " page from a source · ", h("span", { class: "dot note" }), " note · ", h("span", { class: "dot concept" }), " concept. Click a page to open it.");
  add(panel, [
    h(
      "section",
      { class: "card stack", "aria-labelledby": "graph-title" },
      h("div", { class: "row spread" }, h("h2", { id: "graph-title" }, around ? "Around one page" : "Graph"), h("div", { class: "actions" }, search, zoomOut, zoomIn, fit)),
      titles,
      around ? h("p", { class: "small" }, "Showing a page and its neighbours. ", h("a", { href: `#/brains/${enc(brain.id)}/graph` }, "Show the whole brain")) : null,
      status,
      box,
      canvas,
      legend,
    ),
  ]);

  let graph;
  try {
    const q = around ? `?around=${enc(around)}&depth=2` : "?limit=500";
    graph = await api(API.graph(brain.id) + q, { signal });
  } catch (e) {
    if (missingRoute(e)) return fill(canvas, h("p", { class: "notice" }, "This server does not draw the graph yet."));
    if (e instanceof ApiError && e.status === 404 && around) return showError(box, new ApiError(404, e.code, `No page “${around}” in this brain.`));
    throw e;
  }
  const nodes = graph.nodes ?? [];
  const edges = (graph.edges ?? []).filter((e) => e.from !== e.to);
  if (!nodes.length) {
    fill(canvas, h("p", { class: "empty" }, "No pages yet. The graph appears once sources are processed."));
    return;
  }
  status.textContent = `${plural(nodes.length, "page")}, ${plural(edges.length, "link")}${graph.truncated ? ": the best-linked pages of a larger brain. Search or open a page to explore the rest." : "."}`;
  fill(titles, ...nodes.map((n) => h("option", { value: n.title || n.slug })));

  const { default: cytoscape } = await import("../vendor/cytoscape.esm.js");
  if (signal.aborted) return;
  const css = getComputedStyle(document.documentElement);
  const color = (name) => css.getPropertyValue(name).trim() || "#888";
  const maxDegree = Math.max(1, ...nodes.map((n) => n.degree ?? 0));
  const cy = cytoscape({
    container: canvas,
    elements: [
      ...nodes.map((n) => ({ data: { id: n.slug, label: n.title || n.slug, kind: n.kind ?? "source", size: 14 + 26 * Math.sqrt((n.degree ?? 0) / maxDegree) } })),
      ...edges.map((e, i) => ({ data: { id: `e${i}`, source: e.from, target: e.to } })),
    ],
    wheelSensitivity: 0.3,
    minZoom: 0.05,
    maxZoom: 4,
    style: [
      { selector: "node", style: { width: "data(size)", height: "data(size)", "background-color": color("--primary"), label: "data(label)", color: color("--text"), "font-size": 10, "text-valign": "bottom", "text-margin-y": 3, "text-max-width": "120px", "text-wrap": "ellipsis", "min-zoomed-font-size": 7 } },
      { selector: 'node[kind = "concept"]', style: { shape: "diamond", "background-color": color("--warn") } },
      { selector: 'node[kind = "note"]', style: { shape: "round-rectangle", "background-color": color("--ok") } },
      { selector: "edge", style: { width: 1, "line-color": color("--border"), "curve-style": "haystack", opacity: 0.8 } },
      { selector: ".found", style: { "border-width": 4, "border-color": color("--focus"), "font-weight": "bold", "z-index": 10 } },
      { selector: ".faded", style: { opacity: 0.15 } },
    ],
    layout:
      nodes.length <= FORCE_LAYOUT_MAX
        ? // Labels count as part of a node, and unlinked pages keep apart: two lone pages' titles overlapped.
          { name: "cose", animate: false, nodeRepulsion: () => 6000, idealEdgeLength: () => 60, nodeDimensionsIncludeLabels: true, componentSpacing: 100, randomize: false, fit: true, padding: 24 }
        : // Large brains: the best-linked pages in the middle, the rest in rings around them.
          { name: "concentric", concentric: (n) => n.degree(), levelWidth: () => 2, minNodeSpacing: 6, animate: false, fit: true, padding: 24 },
  });
  signal.addEventListener("abort", () => cy.destroy());
  // A handful of pages fitted to the whole canvas would be drawn huge: keep them at a readable size.
  if (cy.zoom() > 1.5) {
    cy.zoom(1.5);
    cy.center();
  }
  if (around && cy.getElementById(around).nonempty()) {
    cy.getElementById(around).addClass("found");
    cy.center(cy.getElementById(around));
  }
  canvas.dataset.nodes = String(cy.nodes().length);
  canvas.dataset.edges = String(cy.edges().length);
  // The drawn graph, for the browser tests (and the console). Keyboard users search, Enter opens the page.
  window.__brainboxGraph = cy;
  cy.on("tap", "node", (e) => (location.hash = wikiHash(brain.id, e.target.id())));
  cy.on("mouseover", "node", () => (canvas.style.cursor = "pointer"));
  cy.on("mouseout", "node", () => (canvas.style.cursor = ""));
  const zoomBy = (f) => cy.zoom({ level: cy.zoom() * f, renderedPosition: { x: canvas.clientWidth / 2, y: canvas.clientHeight / 2 } });
  zoomIn.addEventListener("click", () => zoomBy(1.4));
  zoomOut.addEventListener("click", () => zoomBy(1 / 1.4));
  fit.addEventListener("click", () => {
    cy.elements().removeClass("faded found");
    cy.fit(undefined, 24);
  });
  const find = () => {
    const q = search.value.trim().toLowerCase();
    cy.elements().removeClass("faded found");
    if (!q) return (status.dataset.found = "");
    const hits = cy.nodes().filter((n) => `${n.data("label")} ${n.id()}`.toLowerCase().includes(q));
    status.dataset.found = String(hits.length);
    if (!hits.length) return;
    cy.elements().addClass("faded");
    hits.removeClass("faded").addClass("found");
    hits.neighborhood().removeClass("faded");
    cy.animate({ fit: { eles: hits.closedNeighborhood(), padding: 40 }, duration: matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 250 });
  };
  search.addEventListener("input", find);
  search.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const q = search.value.trim().toLowerCase();
    const exact = nodes.find((n) => (n.title || n.slug).toLowerCase() === q);
    if (exact) location.hash = wikiHash(brain.id, exact.slug);
  });
}
