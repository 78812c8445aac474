// "Add a source": a text passage, a note, a link, or files (several at once, dropped or chosen; each checked
// for a supported type before any byte is sent, each with its own progress).
import { API, ApiError, api, putWithProgress } from "../lib/api.js";
import { announce, field, fill, h } from "../lib/dom.js";
import { errorBox, onSubmit, plainSourceError } from "../lib/forms.js";
import { fmtBytes, plural } from "../lib/format.js";

const TYPES_BY_EXT = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xlsm: "application/vnd.ms-excel.sheet.macroEnabled.12",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  tsv: "text/tab-separated-values",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  epub: "application/epub+zip",
  odt: "application/vnd.oasis.opendocument.text",
  html: "text/html",
  htm: "text/html",
  xhtml: "application/xhtml+xml",
  md: "text/markdown",
  markdown: "text/markdown",
  mdown: "text/markdown",
  mkd: "text/markdown",
  txt: "text/plain",
  text: "text/plain",
  csv: "text/csv",
  json: "application/json",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
};
const extOf = (name) => (name.includes(".") ? name.split(".").pop().toLowerCase() : "");
/** The server reads these (src/ingest/detect-type.ts): by extension, or any text/* type. */
export const supported = (file) => Boolean(TYPES_BY_EXT[extOf(file.name)]) || /^text\//.test(file.type);
const contentTypeOf = (file) => TYPES_BY_EXT[extOf(file.name)] || file.type || "application/octet-stream";
const ACCEPT = Object.keys(TYPES_BY_EXT).map((e) => `.${e}`).join(",") + ",text/*";

export function addSourceCard(brain, signal, { refresh, uploading, watch }) {
  const box = errorBox();
  const done = h("p", { class: "success", role: "status", hidden: true });
  // The message about the source added last follows its fate: never "being processed" beside a failed row.
  let added = null;
  watch((sources) => {
    if (!added || done.hidden) return;
    const s = sources.find((x) => x.id === added.id);
    if (!s) return;
    if (s.status === "failed") {
      done.className = "notice warn";
      done.textContent = `“${s.title}” could not be processed: ${plainSourceError(s.error) || "unknown error"}`;
      added = null;
    } else if (s.status === "ready") {
      done.className = "success";
      done.textContent = `“${s.title}” is ready: ${plural(s.pageCount ?? 0, "wiki page")}.`;
      added = null;
    }
  });
  const kinds = [
    ["text", "Text"],
    ["note", "Note"],
    ["link", "Link"],
    ["file", "Files"],
  ];
  const chooser = h(
    "fieldset",
    {},
    h("legend", { class: "visually-hidden" }, "Kind of source"),
    h(
      "div",
      { class: "segmented" },
      kinds.map(([value, label], i) => h("label", {}, h("input", { type: "radio", name: "kind", value, checked: i === 0 }), h("span", {}, label))),
    ),
  );
  const formHolder = h("div");
  const explain = {
    text: "A passage is synthesized into linked wiki pages that answers can cite.",
    note: "A note is stored verbatim as one wiki page (markdown), without synthesis.",
    link: "The server fetches the page, extracts its readable text and synthesizes it into the wiki.",
    file: "PDF, DOCX, HTML, Markdown or plain text, one or several at once. Each file goes straight to storage, then it is processed.",
  };
  const hint = h("p", { class: "muted small" });

  const forms = {
    text: () => {
      const f = h(
        "form",
        { class: "form-grid", "aria-label": "Add a text passage" },
        field("Title", h("input", { type: "text", name: "title", required: true, maxlength: "500" }), null, "wide"),
        field("Content", h("textarea", { name: "content", required: true, rows: "6" }), null, "wide"),
        field("Source URL", h("input", { type: "url", name: "sourceUrl", placeholder: "https://…" }), "Optional: where the passage comes from"),
        h("div", { class: "actions" }, h("button", { type: "submit" }, "Add text")),
      );
      return onSubmit(f, box, async (fd) => {
        const body = { title: String(fd.get("title")).trim(), content: String(fd.get("content")) };
        const url = String(fd.get("sourceUrl") ?? "").trim();
        if (url) body.sourceUrl = url;
        await create(f, body);
      });
    },
    note: () => {
      const f = h(
        "form",
        { class: "form-grid", "aria-label": "Add a note" },
        field("Title", h("input", { type: "text", name: "title", required: true, maxlength: "500" }), null, "wide"),
        field("Note (markdown)", h("textarea", { name: "content", required: true, rows: "6" }), null, "wide"),
        h("div", { class: "actions" }, h("button", { type: "submit" }, "Add note")),
      );
      return onSubmit(f, box, (fd) => create(f, { title: String(fd.get("title")).trim(), content: String(fd.get("content")), mode: "note" }));
    },
    link: () => {
      const f = h(
        "form",
        { class: "form-grid", "aria-label": "Add a link" },
        field("URL", h("input", { type: "url", name: "url", required: true, placeholder: "https://example.com/article" }), null, "wide"),
        h("div", { class: "actions" }, h("button", { type: "submit" }, "Add link")),
      );
      return onSubmit(f, box, (fd) => create(f, { kind: "link", url: String(fd.get("url")).trim() }));
    },
    file: () => fileForm(),
  };

  /** Files: chosen or dropped, checked first, then uploaded one after another, each with its own progress. */
  const fileForm = () => {
    const input = h("input", { type: "file", name: "file", multiple: true, accept: ACCEPT });
    const drop = h(
      "div",
      { class: "dropzone wide" },
      field("Files to upload", input, "Or drop files here."),
    );
    const list = h("ul", { class: "uploads wide", "aria-label": "Files", "aria-live": "polite" });
    const f = h("form", { class: "form-grid", "aria-label": "Upload files" }, drop, list, h("div", { class: "actions" }, h("button", { type: "submit" }, "Upload")));
    let chosen = [];
    const choose = (files) => {
      chosen = Array.from(files);
      fill(list, ...chosen.map((file) => fileRow(file).li));
    };
    const rowsByFile = new Map();
    const fileRow = (file) => {
      const ok = supported(file) && file.size > 0;
      const progress = h("progress", { max: "100", value: "0", "aria-label": `Upload progress of ${file.name}`, hidden: !ok });
      const status = h("span", { class: `upload-status small ${ok ? "muted" : "cell-error"}` }, ok ? `${fmtBytes(file.size)} · ready to upload` : file.size === 0 ? "Empty file: it will not be uploaded." : `Not a supported type (${extOf(file.name) || file.type || "unknown"}): it will not be uploaded. Use PDF, DOCX, HTML, Markdown or text.`);
      const li = h("li", { "data-file": file.name, class: ok ? "" : "refused" }, h("span", { class: "file-name" }, file.name), progress, status);
      const row = { li, ok, progress, status };
      rowsByFile.set(file, row);
      return row;
    };
    input.addEventListener("change", () => choose(input.files ?? []));
    for (const type of ["dragenter", "dragover"])
      drop.addEventListener(type, (e) => {
        e.preventDefault();
        drop.classList.add("dragging");
      });
    drop.addEventListener("dragleave", () => drop.classList.remove("dragging"));
    drop.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("dragging");
      if (e.dataTransfer?.files?.length) choose(e.dataTransfer.files);
    });
    return onSubmit(f, box, async () => {
      if (!chosen.length) throw new ApiError(0, "invalid_request", "Choose or drop at least one file first.", "file");
      const good = chosen.filter((file) => rowsByFile.get(file)?.ok);
      if (!good.length) throw new ApiError(0, "invalid_request", "None of these files can be read by Brainbox: use PDF, DOCX, HTML, Markdown or text.", "file");
      let failed = 0;
      for (const file of good) {
        const row = rowsByFile.get(file);
        try {
          await uploadOne(file, row);
        } catch (e) {
          if (e?.name === "AbortError") throw e;
          failed++;
          row.status.className = "upload-status small cell-error";
          row.status.textContent = `Failed: ${e.message}`;
        }
      }
      announce(`${plural(good.length - failed, "file")} uploaded${failed ? `, ${failed} failed` : ""}`);
      input.value = "";
      chosen = [];
      await refresh();
    });
  };

  const uploadOne = async (file, row) => {
    const contentType = contentTypeOf(file);
    row.status.textContent = "Preparing…";
    const ticket = await api(API.uploadUrl(brain.id), { method: "POST", json: { filename: file.name, contentType, size: file.size }, signal });
    uploading(1);
    await refresh(); // the source appears now, pending its bytes
    try {
      await putWithProgress(ticket, file, contentType, (p) => {
        row.progress.value = Math.round(p * 100);
        row.status.textContent = `Uploading: ${Math.round(p * 100)}% of ${fmtBytes(file.size)}`;
      });
    } finally {
      uploading(-1);
    }
    row.progress.value = 100;
    row.status.textContent = `Uploaded ${file.name} (${fmtBytes(file.size)}). Processing has started.`;
  };

  const create = async (form, body) => {
    done.hidden = true;
    const res = await api(API.sources(brain.id), { method: "POST", json: body, signal });
    const s = res.source ?? res;
    form.reset();
    added = s;
    done.className = "success";
    done.textContent = res.created === false ? `“${s.title}” already existed (same external id); it was updated if its content changed.` : `Added “${s.title}”. It is being processed.`;
    done.hidden = false;
    announce(done.textContent);
    await refresh();
  };

  const show = (kind) => {
    fill(box);
    done.hidden = true;
    added = null;
    hint.textContent = explain[kind];
    fill(formHolder, forms[kind]());
  };
  chooser.addEventListener("change", (e) => show(e.target.value));
  show("text");
  return h("section", { class: "card stack", "aria-labelledby": "add-source" }, h("h2", { id: "add-source" }, "Add a source"), chooser, hint, formHolder, box, done);
}
