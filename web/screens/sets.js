// Brain sets: a primary brain with advisors, one answer with citations tagged by brain; each set keeps its
// own conversation and history.
import { API, ApiError, api, enc, missingRoute, session } from "../lib/api.js";
import { add, announce, confirmDialog, field, fill, h } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";
import { askCard } from "./ask.js";
import { sharePanel } from "./share.js";

export async function setsScreen(view, signal) {
  add(view, [
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Brain sets")),
    h("p", { class: "muted" }, "A brain set blends a primary brain with 1 to 4 advisor brains: one answer, citations tagged by brain."),
  ]);
  if (session.usage && session.usage.brainSets === false) {
    view.append(h("p", { class: "notice warn" }, h("strong", {}, "Your plan does not include brain sets. "), "Asking a set needs a Pro or Team plan."));
  }
  const box = errorBox();
  const listBox = h("div", { class: "stack" });
  const [{ brains: own }, accessible] = await Promise.all([api(API.brains, { signal }), api(API.accessibleBrains, { signal }).catch(() => ({ brains: [] }))]);
  const all = [...own, ...(accessible.brains ?? []).filter((b) => !own.some((o) => o.id === b.id))];
  const nameOf = (b) => `${b.emoji ? `${b.emoji} ` : ""}${b.name}`;
  const primary = h("select", { name: "primaryBrainId", required: true }, h("option", { value: "" }, "Choose…"), all.map((b) => h("option", { value: b.id }, nameOf(b))));
  const advisors = h(
    "fieldset",
    { class: "wide" },
    h("legend", {}, "Advisors ", h("span", { class: "hint" }, "(1 to 4)")),
    h("div", { class: "row" }, all.map((b) => h("label", { class: "check" }, h("input", { type: "checkbox", name: "advisorBrainIds", value: b.id }), nameOf(b)))),
  );
  // The primary cannot also advise itself.
  const syncAdvisors = () => {
    for (const box of advisors.querySelectorAll("input")) {
      box.disabled = box.value === primary.value;
      if (box.disabled) box.checked = false;
    }
  };
  primary.addEventListener("change", syncAdvisors);
  const form = h(
    "form",
    { class: "form-grid" },
    field("Name", h("input", { type: "text", name: "name", required: true, maxlength: "120" })),
    field("Primary brain", primary),
    advisors,
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Create set")),
    h("div", { class: "wide" }, box),
  );
  const load = async () => {
    let sets;
    try {
      sets = (await api(API.brainSets, { signal })).brainSets ?? [];
    } catch (e) {
      if (missingRoute(e)) return fill(listBox, h("p", { class: "notice" }, "This server does not offer brain sets yet."));
      throw e;
    }
    fill(listBox,
      ...(sets.length ? sets.map((s) => setCard(s, signal, load)) : [h("p", { class: "empty" }, "No brain sets yet.")]),
    );
  };
  onSubmit(form, box, async (fd) => {
    const body = { name: String(fd.get("name")).trim(), primaryBrainId: fd.get("primaryBrainId"), advisorBrainIds: fd.getAll("advisorBrainIds") };
    if (!body.advisorBrainIds.length) throw new ApiError(0, "invalid_request", "Pick at least one advisor brain.", "advisorBrainIds");
    const { brainSet } = await api(API.brainSets, { method: "POST", json: body, signal });
    form.reset();
    syncAdvisors(); // reset() clears the primary without a change event: re-enable its advisor box
    announce(`Brain set “${brainSet.name}” created`);
    await load();
  });
  add(view, [
    all.length >= 2
      ? h("section", { class: "card stack", "aria-labelledby": "new-set" }, h("h2", { id: "new-set" }, "Create a brain set"), form)
      : h("p", { class: "notice" }, "A set needs at least two brains. Create more brains first."),
    h("section", { "aria-label": "Your brain sets" }, listBox),
  ]);
  await load();
}

function setCard(set, signal, reload) {
  const box = errorBox();
  const del = h("button", { type: "button", class: "danger small" }, "Delete set");
  const askHolder = h("div");
  const askBtn = h("button", { type: "button", class: "secondary small", "aria-expanded": "false" }, "Ask this set");
  askBtn.addEventListener("click", () => {
    const open = askBtn.getAttribute("aria-expanded") === "true";
    askBtn.setAttribute("aria-expanded", String(!open));
    const brains = [
      ...(set.primary ? [{ ...set.primary, kind: "primary" }] : []),
      ...(set.advisors ?? []).map((a) => ({ ...a, kind: "advisor" })),
    ];
    fill(askHolder, open ? "" : askCard({ path: API.brainSetAsk(set.id), historyPath: API.setAsks(set.id), scope: `set:${set.id}`, brainId: set.primary?.id, signal, label: `Ask ${set.name}`, brains, belongs: (c) => c.setId === set.id }));
    if (!open) askHolder.querySelector("textarea")?.focus();
  });
  del.addEventListener("click", async () => {
    if (!(await confirmDialog(`Delete the set “${set.name}”?`, "Its brains are kept.", "Delete set"))) return del.focus();
    try {
      await api(API.brainSet(set.id), { method: "DELETE", signal });
      announce(`Set “${set.name}” deleted`);
      await reload();
    } catch (e) {
      showError(box, e);
    }
  });
  const brainLink = (b) => h("a", { href: `#/brains/${enc(b.id)}` }, b.name);
  // Owners share the set (the Share button opens its panel).
  const shareHolder = h("div");
  const shareBtn = h("button", { type: "button", class: "secondary small", "aria-expanded": "false", hidden: set.role !== undefined && set.role !== "owner" }, "Share");
  shareBtn.addEventListener("click", () => {
    const open = shareBtn.getAttribute("aria-expanded") === "true";
    shareBtn.setAttribute("aria-expanded", String(!open));
    fill(shareHolder, open ? "" : sharePanel({ base: "/api/v1/brain-sets", id: set.id, name: set.name, signal }));
  });
  return h(
    "article",
    { class: "card stack", "aria-label": `Brain set ${set.name}` },
    h("div", { class: "row spread" }, h("h2", {}, set.name), h("div", { class: "actions" }, askBtn, shareBtn, del)),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Primary"),
      h("dd", {}, set.primary ? brainLink(set.primary) : "—"),
      h("dt", {}, "Advisors"),
      h("dd", {}, (set.advisors ?? []).flatMap((a, i) => (i ? [", ", brainLink(a)] : [brainLink(a)]))),
    ),
    box,
    shareHolder,
    askHolder,
  );
}
