// A brain's settings: for its owners name and visibility, sharing (share.js), paid access (paid.js), webhooks
// (webhooks.js) and deleting the brain; for its editors too the Obsidian vault's export and import (vault.js).
import { API, api, brainRole } from "../lib/api.js";
import { announce, confirmDialog, field, h } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";
import { plural } from "../lib/format.js";
import { rerender } from "../lib/router.js";
import { brainPaidSection } from "./paid.js";
import { brainShareSection } from "./share.js";
import { brainVaultSection } from "./vault.js";
import { brainWebhooksSection } from "./webhooks.js";

/**
 * Sections of a brain's settings: `render(brain, signal) → Node | Promise<Node|null>`, shown to the brain's
 * owners, or to its editors too with `editors: true` (the tab itself shows to editors and owners).
 */
const BRAIN_SETTINGS_SECTIONS = [
  { render: brainGeneralSection },
  { render: brainShareSection },
  { render: brainPaidSection },
  { render: brainWebhooksSection },
  { render: brainVaultSection, editors: true },
  { render: brainDangerSection },
];

export async function settingsTab(panel, brain, _rest, signal) {
  const isOwner = brainRole(brain) === "owner";
  for (const section of BRAIN_SETTINGS_SECTIONS) {
    if (!isOwner && !section.editors) continue;
    const node = await section.render(brain, signal);
    if (node) panel.append(node);
  }
}

function brainGeneralSection(brain, signal) {
  const box = errorBox();
  const saved = h("p", { class: "success", role: "status", hidden: true });
  const form = h(
    "form",
    { class: "form-grid" },
    field("Name", h("input", { type: "text", name: "name", required: true, maxlength: "120", value: brain.name })),
    field("Emoji", h("input", { type: "text", name: "emoji", maxlength: "16", value: brain.emoji ?? "" })),
    field(
      "Visibility",
      h(
        "select",
        { name: "visibility" },
        h("option", { value: "private", selected: brain.visibility === "private" }, "Private (only you)"),
        h("option", { value: "public", selected: brain.visibility === "public" }, "Public (all accounts)"),
      ),
    ),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Save")),
    h("div", { class: "wide" }, box, saved),
  );
  onSubmit(form, box, async (fd) => {
    saved.hidden = true;
    const body = {};
    const name = String(fd.get("name")).trim();
    const emoji = String(fd.get("emoji") ?? "").trim();
    if (name !== brain.name) body.name = name;
    if (emoji && emoji !== brain.emoji) body.emoji = emoji;
    if (fd.get("visibility") !== brain.visibility) body.visibility = fd.get("visibility");
    if (!Object.keys(body).length) {
      saved.textContent = "Nothing changed.";
      saved.hidden = false;
      return;
    }
    const res = await api(API.brain(brain.id), { method: "PATCH", json: body, signal });
    Object.assign(brain, res.brain);
    saved.textContent = "Saved.";
    saved.hidden = false;
    announce("Brain saved");
    // The heading and badge show the new name and visibility.
    rerender();
  });
  return h("section", { class: "card stack", "aria-labelledby": "general" }, h("h2", { id: "general" }, "Name and visibility"), h("p", { class: "muted small" }, "A public brain appears in every account's list; others can read and ask it, but not change it."), form);
}

function brainDangerSection(brain, signal) {
  const box = errorBox();
  const del = h("button", { type: "button", class: "danger" }, "Delete this brain");
  del.addEventListener("click", async () => {
    const ok = await confirmDialog(`Delete “${brain.name}”?`, `Its ${plural(brain.sourceCount ?? 0, "source")}, wiki pages and vectors will be deleted. This cannot be undone.`, "Delete brain");
    if (!ok) return del.focus();
    try {
      await api(API.brain(brain.id), { method: "DELETE", signal });
      announce(`Brain “${brain.name}” deleted`);
      location.hash = "#/";
    } catch (e) {
      showError(box, e);
    }
  });
  return h("section", { class: "card stack", "aria-labelledby": "danger" }, h("h2", { id: "danger" }, "Delete"), h("p", { class: "muted small" }, "Deleting a brain removes everything in it."), h("div", { class: "actions" }, del), box);
}
