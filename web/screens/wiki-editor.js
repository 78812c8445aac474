// The page editor (owners): markdown with a live preview, save with the revision it started from (a save
// that crossed someone else's is refused, and the text kept), and the page's revisions with revert.
import { API, ApiError, api, enc } from "../lib/api.js";
import { announce, confirmDialog, field, fill, h } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";
import { fmtDate } from "../lib/format.js";
import { markdown, wikiHash } from "../lib/markdown.js";

export function pageEditor(article, brain, page, signal, titles = new Map()) {
  const slug = page.slug;
  const title = h("input", { type: "text", name: "title", maxlength: "500", value: page.title ?? "" });
  const text = h("textarea", { name: "markdown", rows: "18", class: "mono", spellcheck: "true" });
  text.value = page.markdown ?? "";
  const preview = h("div", { class: "prose preview card", "aria-label": "Preview", role: "region" });
  const box = errorBox();
  const saved = h("p", { class: "success", role: "status", hidden: true });
  let base = page.revision;
  let frame = 0;
  const draw = () => {
    frame = 0;
    fill(preview, markdown(text.value, { brainId: brain.id, headingOffset: 2, titleOf: (slug) => titles.get(slug) }));
  };
  text.addEventListener("input", () => (frame ||= requestAnimationFrame(draw)));
  draw();
  const form = h(
    "form",
    { class: "stack editor", "aria-label": `Edit ${page.title ?? slug}` },
    field("Title", title),
    h(
      "div",
      { class: "editor-panes" },
      field("Markdown", text, "Link pages with [[slug]] or [[slug|shown title]]."),
      h("div", { class: "field" }, h("span", { class: "label", "aria-hidden": "true" }, "Preview"), preview),
    ),
    box,
    saved,
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Save page"), h("a", { class: "button secondary", href: wikiHash(brain.id, slug) }, "Cancel")),
  );
  const save = async (body, what) => {
    try {
      const res = await api(API.page(brain.id, slug), { method: "PUT", json: { ...body, baseRevision: base }, signal });
      const next = res.page ?? res;
      base = next.revision ?? base;
      saved.textContent = `${what} Revision ${base}.`;
      saved.hidden = false;
      announce(saved.textContent);
      await loadRevisions();
      return next;
    } catch (e) {
      if (e instanceof ApiError && e.status === 409)
        throw new ApiError(409, e.code, "This page was saved elsewhere since you opened it. Your text is still here: copy it, reload the page to see the newer version, then edit again.");
      if (e instanceof ApiError && e.status === 413) throw new ApiError(413, e.code, "This page is too long to save. Split it into several pages.", "markdown");
      throw e;
    }
  };
  onSubmit(form, box, async (fd) => {
    saved.hidden = true;
    const md = String(fd.get("markdown") ?? "");
    if (!md.trim()) throw new ApiError(0, "invalid_request", "A page cannot be empty. To remove it, delete its source.", "markdown");
    const body = { markdown: md };
    const t = String(fd.get("title") ?? "").trim();
    if (t && t !== page.title) body.title = t;
    await save(body, "Saved.");
  });

  const revisionList = h("ol", { class: "revisions", reversed: true });
  const revisionError = errorBox();
  const loadRevisions = async () => {
    try {
      const { revisions } = await api(API.revisions(brain.id, slug), { signal });
      fill(
        revisionList,
        ...revisions.map((r) => {
          const current = r.revision === base;
          const show = h("button", { type: "button", class: "secondary small", "aria-expanded": "false" }, "Show");
          const revert = h("button", { type: "button", class: "secondary small", disabled: current }, current ? "Current" : "Revert to this");
          revert.setAttribute("aria-label", current ? `Revision ${r.revision} is current` : `Revert to revision ${r.revision}`);
          const body = h("div", { class: "prose revision-body", hidden: true });
          show.addEventListener("click", () => {
            const open = body.hidden;
            body.hidden = !open;
            show.setAttribute("aria-expanded", String(open));
            show.textContent = open ? "Hide" : "Show";
            if (open) fill(body, markdown(r.markdown ?? "", { brainId: brain.id, headingOffset: 3 }));
          });
          revert.addEventListener("click", async () => {
            if (!(await confirmDialog(`Revert to revision ${r.revision}?`, "The page gets this revision's text and title back, as a new revision. Nothing is lost: the current text stays in the list.", "Revert", false))) return revert.focus();
            fill(revisionError);
            try {
              const next = await save({ markdown: r.markdown, title: r.title }, `Reverted to revision ${r.revision}.`);
              text.value = next.markdown ?? r.markdown;
              title.value = next.title ?? r.title ?? "";
              draw();
            } catch (e) {
              showError(revisionError, e);
            }
          });
          return h(
            "li",
            { "data-revision": r.revision },
            h("div", { class: "row spread" }, h("span", {}, h("strong", {}, `Revision ${r.revision}`), ` · ${r.author === "owner" ? "edited by the owner" : "written from the source"} · ${fmtDate(r.createdAt)}`), h("span", { class: "actions" }, show, revert)),
            body,
          );
        }),
      );
    } catch (e) {
      showError(revisionError, e);
    }
  };
  fill(
    article,
    h("h2", { tabindex: "-1", class: "page-title" }, `Edit “${page.title ?? slug}”`),
    h("p", { class: "muted small" }, "Once edited, re-processing its source no longer rewrites this page. ", h("a", { href: `#/brains/${enc(brain.id)}/wiki/${enc(slug)}` }, "Back to the page")),
    form,
    h("section", { class: "stack", "aria-labelledby": "revisions-title" }, h("h3", { id: "revisions-title" }, "Revisions"), revisionError, revisionList),
  );
  loadRevisions();
  title.focus();
}
