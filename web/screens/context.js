// Context: the pages matching a query and their text, for use elsewhere (no answer, never counted).
import { API, api } from "../lib/api.js";
import { add, copyText, field, fill, h } from "../lib/dom.js";
import { errorBox, onSubmit } from "../lib/forms.js";
import { wikiLink } from "../lib/markdown.js";

export async function contextTab(panel, brain, _rest, signal) {
  const query = h("input", { type: "search", name: "query", required: true, placeholder: "Topic or question" });
  const box = errorBox();
  const out = h("div", { class: "stack", "aria-live": "polite" });
  const form = h(
    "form",
    { class: "form-grid" },
    field("Retrieve the pages matching", query, "No answer is generated and it does not count against your question quota.", "wide"),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Get context")),
    h("div", { class: "wide" }, box),
  );
  onSubmit(form, box, async (fd) => {
    const q = String(fd.get("query") ?? "").trim();
    const res = await api(API.context(brain.id), { method: "POST", json: { query: q }, signal });
    const pages = res.pages ?? [];
    const text = res.contextText ?? res.context ?? "";
    const copy = h("button", { type: "button", class: "secondary small" }, "Copy context");
    copy.addEventListener("click", () => copyText(text, copy));
    fill(out,
      res.thin ? h("div", { class: "notice warn", role: "status" }, h("strong", {}, "Little matches: "), "nothing in this brain covers this query well.") : null,
      h(
        "section",
        { class: "card" },
        h("h2", {}, `Matching pages (${pages.length})`),
        pages.length ? h("ol", { class: "citations" }, pages.map((p) => h("li", {}, wikiLink(brain.id, p.slug, p.title || p.slug)))) : h("p", { class: "muted" }, "None."),
      ),
      text ? h("section", { class: "card stack" }, h("div", { class: "row spread" }, h("h2", {}, "Context text"), copy), h("pre", { class: "context", tabindex: "0" }, text)) : null,
    );
  });
  add(panel, [h("section", { class: "card stack" }, h("h2", {}, "Context"), form), out]);
}
