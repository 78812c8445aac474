// The brains list: your brains, public brains of other accounts, and creating a brain.
import { API, api, enc } from "../lib/api.js";
import { add, announce, field, fill, h, labelCells } from "../lib/dom.js";
import { errorBox, onSubmit } from "../lib/forms.js";

export async function brainsScreen(view, signal) {
  const listBox = h("div", { "aria-live": "polite" }, h("p", { class: "muted" }, "Loading brains…"));
  const box = errorBox();
  const name = h("input", { type: "text", name: "name", required: true, maxlength: "120", autocomplete: "off" });
  const emoji = h("input", { type: "text", name: "emoji", maxlength: "16", autocomplete: "off", placeholder: "🧠" });
  const visibility = h(
    "select",
    { name: "visibility" },
    h("option", { value: "private" }, "Private (only you)"),
    h("option", { value: "public" }, "Public (all accounts)"),
  );
  const form = h(
    "form",
    { class: "form-grid" },
    field("Name", name),
    field("Emoji", emoji, "Optional"),
    field("Visibility", visibility, "Public brains can be read and asked by every account"),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Create brain")),
    h("div", { class: "wide" }, box),
  );
  const load = async () => {
    const [own, accessible] = await Promise.all([
      api(API.brains, { signal }),
      api(API.accessibleBrains, { signal }).catch(() => ({ brains: [] })),
    ]);
    const ownIds = new Set(own.brains.map((b) => b.id));
    const shared = (accessible.brains ?? []).filter((b) => !ownIds.has(b.id));
    fill(listBox, brainsTable(own.brains, "Your brains", "No brains yet. Create the first one above."));
    if (shared.length) listBox.append(brainsTable(shared, "Public brains of other accounts"));
  };
  onSubmit(form, box, async (fd) => {
    const body = { name: String(fd.get("name")).trim(), visibility: fd.get("visibility") };
    const e = String(fd.get("emoji") ?? "").trim();
    if (e) body.emoji = e;
    const { brain } = await api(API.brains, { method: "POST", json: body, signal });
    form.reset();
    announce(`Brain “${brain.name}” created`);
    await load();
    name.focus();
  });
  add(view, [
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Brains")),
    h("p", { class: "muted" }, "A brain is a knowledge base built from your sources. Open one to add sources, browse its wiki and ask it questions."),
    h("section", { class: "card stack", "aria-labelledby": "create-brain" }, h("h2", { id: "create-brain" }, "Create a brain"), form),
    h("section", { class: "stack", "aria-label": "Brain list" }, listBox),
  ]);
  await load();
}

function brainsTable(brains, caption, emptyText) {
  const section = h("div", { class: "card stack" }, h("h2", {}, caption));
  if (!brains.length) return add(section, [h("p", { class: "empty" }, emptyText ?? "None.")]);
  const rows = brains.map((b) =>
    h(
      "tr",
      { "data-brain-id": b.id },
      h("td", { class: "title-cell" }, h("a", { href: `#/brains/${enc(b.id)}` }, `${b.emoji ? `${b.emoji} ` : ""}${b.name}`), h("span", { class: "sub mono" }, b.slug ?? "")),
      h("td", {}, h("span", { class: `badge ${b.visibility}` }, b.visibility ?? "private")),
      h("td", { class: "num" }, String(b.sourceCount ?? 0)),
      h(
        "td",
        { class: "nowrap hide-narrow" },
        h("a", { href: `#/brains/${enc(b.id)}/ask`, "aria-label": `Ask ${b.name}` }, "Ask"),
        " · ",
        h("a", { href: `#/brains/${enc(b.id)}/wiki`, "aria-label": `Wiki of ${b.name}` }, "Wiki"),
      ),
    ),
  );
  section.append(
    h(
      "div",
      { class: "table-wrap" },
      labelCells(h(
        "table",
        { class: "data" },
        h("caption", { class: "visually-hidden" }, caption),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Brain"), h("th", { scope: "col" }, "Visibility"), h("th", { scope: "col", class: "num" }, "Sources"), h("th", { scope: "col", class: "hide-narrow" }, h("span", { class: "visually-hidden" }, "Shortcuts")))),
        h("tbody", {}, rows),
      )),
    ),
  );
  return section;
}

