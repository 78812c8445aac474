// The wiki: the page list (filter by title, kind or source; concept pages marked), one page with its source,
// its backlinks and its state (edited by the owner, source changed since), and the editor for the owner.
import { API, ApiError, api, enc, missingRoute } from "../lib/api.js";
import { add, fill, h } from "../lib/dom.js";
import { errorBox, showError } from "../lib/forms.js";
import { fmtDate, plural } from "../lib/format.js";
import { markdown, sanitizedHtml, wikiHash, wikiLink } from "../lib/markdown.js";
import { routeQuery } from "../lib/router.js";
import { pageEditor } from "./wiki-editor.js";

export const KIND_LABEL = { source: "from a source", note: "note", concept: "concept" };

/** Every page of a brain (the list comes in batches by slug; a wiki of a few thousand pages stays quick). */
export async function allPages(brainId, signal) {
  const pages = [];
  let cursor = null;
  do {
    const data = await api(`${API.pages(brainId)}?limit=200${cursor ? `&cursor=${enc(cursor)}` : ""}`, { signal });
    pages.push(...(data.pages ?? []));
    cursor = data.nextCursor ?? null;
  } while (cursor && pages.length < 5000);
  return pages.sort((a, b) => (a.title || a.slug).localeCompare(b.title || b.slug));
}

export const kindBadge = (kind) => (kind && kind !== "source" ? h("span", { class: `badge kind-${kind}` }, KIND_LABEL[kind] ?? kind) : null);

export async function wikiTab(panel, brain, slug, signal, owned) {
  const query = routeQuery();
  const sourceFilter = query.get("source");
  const list = h("ul");
  const filter = h("input", { type: "search", placeholder: "Filter pages", "aria-label": "Filter pages by title" });
  const kind = h(
    "select",
    { "aria-label": "Kind of page" },
    h("option", { value: "" }, "All kinds"),
    h("option", { value: "concept" }, "Concepts"),
    h("option", { value: "source" }, "From sources"),
    h("option", { value: "note" }, "Notes"),
  );
  const count = h("p", { class: "muted small" });
  const sourceNote = h("p", { class: "small", hidden: !sourceFilter });
  const article = h("article", { class: "card prose", "aria-live": "polite" });
  const listError = errorBox();
  add(panel, [
    h(
      "div",
      { class: "wiki" },
      h("nav", { class: "card wiki-list", "aria-label": "Wiki pages" }, h("h2", {}, "Pages"), h("div", { class: "row" }, filter, kind), sourceNote, count, listError, list),
      article,
    ),
  ]);

  let pages = [];
  try {
    pages = await allPages(brain.id, signal);
  } catch (e) {
    if (missingRoute(e)) {
      fill(article, h("p", { class: "notice" }, "This server does not serve wiki pages yet."));
      return;
    }
    showError(listError, e);
  }
  const titles = new Map(pages.map((p) => [p.slug, p.title]));
  if (sourceFilter)
    fill(sourceNote, `Showing the pages made from one source. `, h("a", { href: `#/brains/${enc(brain.id)}/wiki${slug ? `/${enc(slug)}` : ""}` }, "Show all pages"));
  const drawList = () => {
    const q = filter.value.trim().toLowerCase();
    const shown = pages.filter((p) => (!q || `${p.title} ${p.slug}`.toLowerCase().includes(q)) && (!kind.value || (p.kind ?? "source") === kind.value) && (!sourceFilter || p.sourceId === sourceFilter));
    count.textContent = shown.length !== pages.length ? `${shown.length} of ${plural(pages.length, "page")}` : plural(pages.length, "page");
    fill(
      list,
      ...shown.map((p) =>
        h("li", { "data-kind": p.kind ?? null }, h("a", { href: wikiHash(brain.id, p.slug) + (sourceFilter ? `?source=${enc(sourceFilter)}` : ""), "aria-current": p.slug === slug ? "page" : null }, p.title || p.slug, kindBadge(p.kind))),
      ),
    );
  };
  filter.addEventListener("input", drawList);
  kind.addEventListener("change", drawList);
  drawList();

  if (!slug) {
    fill(
      article,
      h("h2", { tabindex: "-1" }, "Wiki"),
      pages.length
        ? h("p", { class: "muted" }, "Pick a page. Pages are written from the brain's sources and link to each other; concept pages gather a person, place or idea across sources. ", h("a", { href: `#/brains/${enc(brain.id)}/graph` }, "See them as a graph"), ".")
        : h("p", { class: "empty" }, "No pages yet. Pages appear here once sources are processed."),
    );
    return;
  }
  await showPage(article, brain, slug, signal, { titles, owned, editing: query.get("edit") === "1" });
}

/** One page (also used by the citation side panel, with `compact`). Returns the page or null. */
export async function showPage(article, brain, slug, signal, { titles = new Map(), owned = false, editing = false, compact = false } = {}) {
  fill(article, h("p", { class: "muted" }, "Loading page…"));
  let page;
  try {
    const data = await api(API.page(brain.id, slug), { signal });
    page = data.page ?? data;
  } catch (e) {
    const box = errorBox();
    showError(box, e.status === 404 && !missingRoute(e) ? new ApiError(404, e.code, `No page “${slug}” in this brain. It may have been removed when its source changed.`) : e);
    fill(article, box, compact ? null : h("p", {}, h("a", { href: `#/brains/${enc(brain.id)}/wiki` }, "Back to the page list")));
    return null;
  }
  if (editing && owned) {
    pageEditor(article, brain, page, signal, titles);
    return page;
  }
  const ctx = { brainId: brain.id, titleOf: (s) => titles.get(s) };
  const body = withoutRepeatedTitle(page.html ? sanitizedHtml(page.html, ctx) : markdown(page.markdown ?? "", ctx), page.title);
  const sourceLink = h("span");
  const meta = h(
    "p",
    { class: "muted small page-meta" },
    h("span", { class: "mono" }, page.slug ?? slug),
    kindBadge(page.kind),
    page.sourceId ? [" · ", sourceLink] : null,
    page.updatedAt ? ` · updated ${fmtDate(page.updatedAt)}` : "",
    page.revision ? ` · revision ${page.revision}` : "",
  );
  if (page.sourceId) {
    const href = `#/brains/${enc(brain.id)}/sources?source=${enc(page.sourceId)}`;
    fill(sourceLink, h("a", { href, class: "page-source" }, "its source"));
    // The source's title, when it can be read (a reader of a public brain can read its sources too).
    api(API.source(brain.id, page.sourceId), { signal })
      .then((r) => fill(sourceLink, "from ", h("a", { href, class: "page-source" }, `“${(r.source ?? r).title}”`)))
      .catch(() => undefined);
  }
  const backlinks = page.backlinks ?? page.linkedFrom ?? [];
  const titleOf = (l) => l.title ?? titles.get(l.slug ?? l) ?? l.slug ?? l;
  const actions = h(
    "div",
    { class: "actions page-actions" },
    owned && !compact ? h("a", { class: "button secondary small", href: `${wikiHash(brain.id, page.slug ?? slug)}?edit=1` }, "Edit") : null,
    compact ? h("a", { class: "button secondary small", href: wikiHash(brain.id, page.slug ?? slug) }, "Open in the wiki") : null,
    h("a", { class: "button secondary small", href: `#/brains/${enc(brain.id)}/graph?around=${enc(page.slug ?? slug)}` }, "Show in graph"),
  );
  fill(
    article,
    h(compact ? "h3" : "h2", { tabindex: "-1", class: "page-title" }, page.title ?? slug),
    meta,
    page.edited
      ? h(
          "p",
          { class: page.sourceChanged ? "notice warn small" : "notice small" },
          page.sourceChanged
            ? "Edited by the owner, and its source has changed since: re-processing no longer rewrites this page. Compare with the source and edit it if needed."
            : "Edited by the owner: re-processing its source no longer rewrites this page.",
        )
      : null,
    actions,
    h("div", { class: "page-body" }, body),
    h(
      "section",
      { class: "backlinks", "aria-label": "Linked from" },
      h(compact ? "h4" : "h3", {}, `Linked from (${backlinks.length})`),
      backlinks.length
        ? h("ul", {}, backlinks.map((l) => h("li", {}, wikiLink(brain.id, l.slug ?? l, titleOf(l)))))
        : h("p", { class: "muted small" }, "No other page links here yet."),
    ),
  );
  return page;
}

/** The rendered page without an opening heading that repeats the title shown above it (a Markdown file's "# Title"). */
function withoutRepeatedTitle(body, title) {
  const first = body.firstElementChild;
  const same = (a, b) => String(a ?? "").trim().toLowerCase() === String(b ?? "").trim().toLowerCase();
  if (first && /^H[12]$/.test(first.tagName) && same(first.textContent, title)) first.remove();
  return body;
}
