// A brain as an Obsidian vault, in its settings (editors and owners; docs/backup.md): export it as a zip of
// Markdown notes, import a vault zip (each note a page, titles and links kept) and list the pages it made.
import { API, ApiError, api, enc } from "../lib/api.js";
import { announce, field, fill, h } from "../lib/dom.js";
import { downloadLink } from "../lib/download.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";
import { plural } from "../lib/format.js";

export function brainVaultSection(brain, signal) {
  const exportError = errorBox();
  const box = errorBox();
  const result = h("div", { role: "status" });
  const file = h("input", { type: "file", name: "file", accept: ".zip,application/zip,application/x-zip-compressed", required: true });
  const form = h(
    "form",
    { class: "form-grid", "aria-label": "Import a vault" },
    field("Vault zip", file, "A zip of Markdown notes (an Obsidian vault folder, zipped); each .md file becomes a note page", "wide"),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Import vault")),
    h("div", { class: "wide" }, box),
  );
  onSubmit(form, box, async () => {
    fill(result);
    const chosen = file.files?.[0];
    if (!chosen) throw new Error("Choose the vault's .zip file first.");
    // The file's own type decides the request's: a zip is sent as one, anything else is the server's to refuse.
    const type = chosen.type || "application/octet-stream";
    const res = await api(API.vaultImport(brain.id), { method: "POST", body: chosen, headers: { "content-type": type }, signal }).catch((e) => {
      throw plainVaultError(e);
    });
    form.reset();
    fill(result, importSummary(brain, res.import));
    announce(`Imported ${plural(res.import.imported, "note")}`);
  });

  const slug = brain.slug ?? brain.id;
  return h(
    "section",
    { class: "card stack", "aria-labelledby": "vault" },
    h("h2", { id: "vault" }, "Obsidian vault"),
    h("p", { class: "muted small" }, "Take this brain with you: the export is a zip Obsidian opens as a vault, one Markdown note per page with [[wikilinks]], and the uploaded source files. Importing a vault adds each note as a page of this brain; nothing is imported when the vault is refused. For the whole installation, the server's admin makes a backup."),
    h("div", { class: "actions" }, downloadLink(API.vaultExport(brain.id), "Export as vault (.zip)", { filename: `${slug}-vault.zip`, ariaLabel: `Export ${brain.name} as an Obsidian vault (.zip)`, onError: (e) => showError(exportError, e), signal })),
    exportError,
    h("h3", {}, "Import a vault"),
    form,
    result,
  );
}

function importSummary(brain, summary) {
  const { imported, skipped, pages } = summary;
  const more = imported - pages.length;
  return h(
    "div",
    { class: "success stack" },
    h("p", {}, h("strong", {}, `Imported ${plural(imported, "note")}`), `, skipped ${plural(skipped, "file")} (attachments, hidden files and the export's own folder are not imported).`),
    pages.length
      ? h(
          "ul",
          { "aria-label": "Pages made by the import" },
          pages.map((p) => h("li", {}, h("a", { href: `#/brains/${enc(brain.id)}/wiki/${enc(p.slug)}` }, p.title), h("span", { class: "muted small" }, ` (${p.path})`))),
        )
      : null,
    more > 0 ? h("p", { class: "small muted" }, `…and ${plural(more, "more page")}, in the wiki.`) : null,
  );
}

/** The import's refusals in the words of what to do about them; the server's reason is kept where it has one. */
function plainVaultError(e) {
  if (!(e instanceof ApiError)) return e;
  const say = (message) => new ApiError(e.status, e.code, message, e.field, e.body);
  const reason = e.message.replace(/[.\s]+$/, "");
  if (e.status === 413) {
    const setting = reason.includes("BRAINBOX_VAULT_MAX_BYTES") ? "the limit" : "the limit (BRAINBOX_VAULT_MAX_BYTES)";
    return say(`${reason}. Import it in smaller parts, or ask the server's administrator to raise ${setting}. Nothing was imported.`);
  }
  if (e.status === 415) return say("This file is not a zip. Choose the vault as a .zip file (zip the vault's folder first).");
  if (e.status === 422) {
    const entry = e.body?.error?.entry;
    const named = entry && !e.message.includes(entry) ? ` (${entry})` : "";
    const nothing = /nothing was imported/i.test(e.message) ? "" : " Nothing was imported.";
    return say(`The vault was refused: ${reason}${named}.${nothing}`);
  }
  if (e.status === 409) return say(`${reason}. Nothing was imported; send the vault again.`);
  return e;
}
