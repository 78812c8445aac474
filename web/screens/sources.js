// A brain's sources: the live list (status, stage and elapsed time while processing, its pages), re-process
// and delete; owners also get the "Add a source" card (add-source.js).
import { API, api, enc } from "../lib/api.js";
import { $, add, announce, confirmDialog, fill, h, labelCells } from "../lib/dom.js";
import { errorBox, plainSourceError, showError } from "../lib/forms.js";
import { fmtBytes, fmtDate, fmtElapsed, plural } from "../lib/format.js";
import { every, routeQuery } from "../lib/router.js";
import { addSourceCard } from "./add-source.js";

const POLL_MS = 1500;
export const ACTIVE = new Set(["pending", "processing", "queued", "running"]);

/** What a source is doing, in words: the server's stage when it names one, else its status. */
const STAGE_WORDS = { pending: "Waiting its turn", processing: "Reading and writing pages", queued: "Waiting its turn", running: "Reading and writing pages" };

export async function sourcesTab(panel, brain, _rest, signal, owned) {
  const tableBody = h("tbody");
  const listBox = h("div", { class: "table-wrap" });
  const emptyNote = h("p", { class: "empty" }, owned ? "No sources yet. Add a text passage, a note, a link or a file above." : "No sources yet.");
  let table = null; // built once, so polling never moves (and blurs) a focused button
  const listError = errorBox();
  const summary = h("p", { class: "muted small" });
  const rows = new Map(); // source id → row
  const watchers = new Set(); // callbacks told about every source update (the add card's messages)
  let stopPoll = null;
  let pendingUploads = 0;
  const focusSource = routeQuery().get("source");

  // Loads run one after another; a poll tick is skipped while one runs, so a slow server never stacks them.
  let busy = false;
  let chain = Promise.resolve();
  const refresh = () => (chain = chain.then(load));
  const tick = () => busy || refresh();
  const load = async () => {
    busy = true;
    try {
      const { sources } = await api(API.sources(brain.id), { signal });
      fill(listError);
      update(sources);
      for (const w of watchers) w(sources);
      const active = sources.some((s) => ACTIVE.has(s.status)) || pendingUploads > 0;
      if (active && !stopPoll) stopPoll = every(POLL_MS, tick);
      if (!active && stopPoll) (stopPoll(), (stopPoll = null));
    } catch (e) {
      showError(listError, e);
    } finally {
      busy = false;
    }
  };

  const update = (sources) => {
    const seen = new Set();
    for (const s of sources) {
      seen.add(s.id);
      let row = rows.get(s.id);
      if (!row) {
        row = sourceRow(s);
        rows.set(s.id, row);
      } else if (row.status !== s.status && !ACTIVE.has(s.status)) {
        announce(s.status === "failed" ? `“${s.title}” failed: ${s.error ?? "unknown error"}` : `“${s.title}” is ${s.status}`);
      }
      row.paint(s);
    }
    for (const [id, row] of rows) if (!seen.has(id)) (row.tr.remove(), rows.delete(id));
    // Server order; a row is only moved when it is out of place (moving a node blurs its buttons).
    sources.forEach((s, i) => {
      const tr = rows.get(s.id).tr;
      if (tableBody.children[i] !== tr) tableBody.insertBefore(tr, tableBody.children[i] ?? null);
    });
    const headerCount = $("#brain-source-count");
    if (headerCount) headerCount.textContent = plural(sources.length, "source");
    const counts = {};
    for (const s of sources) counts[s.status] = (counts[s.status] ?? 0) + 1;
    summary.textContent = sources.length
      ? `${plural(sources.length, "source")}: ${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(", ")}`
      : "";
    table ??= h(
      "table",
      { class: "data" },
      h("caption", { class: "visually-hidden" }, "Sources"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Title"), h("th", { scope: "col" }, "Type"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col", class: "num" }, "Pages"), h("th", { scope: "col" }, "Updated"), owned ? h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")) : null)),
      tableBody,
    );
    labelCells(table);
    const want = sources.length ? table : emptyNote;
    if (listBox.firstChild !== want) fill(listBox, want);
  };

  const sourceRow = (s) => {
    const title = h("span", { class: "source-title" });
    const sub = h("span", { class: "sub" });
    const err = h("span", { class: "cell-error" });
    const type = h("td");
    const status = h("span", { class: "badge" });
    const stage = h("span", { class: "stage small muted" });
    const pages = h("td", { class: "num" });
    const updated = h("td", { class: "nowrap small" });
    const reprocessBtn = h("button", { type: "button", class: "secondary small" }, "Re-process");
    const deleteBtn = h("button", { type: "button", class: "danger small" }, "Delete");
    const actionError = h("span", { class: "cell-error", role: "alert" });
    const tr = h(
      "tr",
      { "data-source-id": s.id, class: s.id === focusSource ? "highlight" : null },
      h("td", { class: "title-cell" }, title, sub, err),
      type,
      h("td", {}, status, stage),
      pages,
      updated,
      owned ? h("td", { class: "nowrap" }, h("div", { class: "actions" }, reprocessBtn, deleteBtn), actionError) : null,
    );
    if (s.id === focusSource) requestAnimationFrame(() => tr.scrollIntoView({ block: "center" }));
    const row = {
      tr,
      status: s.status,
      current: s,
      paint(src) {
        row.current = src;
        row.status = src.status;
        const active = ACTIVE.has(src.status);
        title.textContent = src.title || src.filename || src.url || "(untitled)";
        sub.textContent = [src.url && src.url !== src.title ? src.url : "", src.filename && src.filename !== src.title ? src.filename : "", src.size ? fmtBytes(src.size) : ""].filter(Boolean).join(" · ");
        err.textContent = src.status === "failed" && src.error ? plainSourceError(src.error) : "";
        type.textContent = src.type;
        status.textContent = src.status;
        status.className = `badge ${src.status}`;
        // While it works: the stage and how long it has been at it (since its last status change).
        const since = Date.parse(src.stageStartedAt ?? src.updatedAt ?? src.createdAt);
        stage.textContent = active ? `${src.stage ?? STAGE_WORDS[src.status] ?? src.status}${Number.isNaN(since) ? "" : ` · ${fmtElapsed(Date.now() - since)}`}` : "";
        const count = src.pageCount ?? 0;
        fill(pages, count > 0 ? h("a", { href: `#/brains/${enc(brain.id)}/wiki?source=${enc(src.id)}`, "aria-label": `${plural(count, "page")} from ${title.textContent}` }, String(count)) : active ? "—" : "0");
        updated.textContent = fmtDate(src.updatedAt ?? src.createdAt);
        // Re-processing a source that is still being processed would only queue the same work twice.
        reprocessBtn.disabled = active;
        reprocessBtn.title = active ? "Wait until processing ends" : "";
        reprocessBtn.setAttribute("aria-label", `Re-process ${row.current.title}`);
        deleteBtn.setAttribute("aria-label", `Delete ${row.current.title}`);
      },
    };
    reprocessBtn.addEventListener("click", async () => {
      actionError.textContent = "";
      reprocessBtn.disabled = true;
      try {
        await api(API.reprocess(brain.id, row.current.id), { method: "POST", signal });
        announce(`Re-processing “${row.current.title}”`);
        await refresh();
      } catch (e) {
        if (e?.name !== "AbortError") actionError.textContent = e.message;
        reprocessBtn.disabled = ACTIVE.has(row.status);
      }
    });
    deleteBtn.addEventListener("click", async () => {
      const ok = await confirmDialog("Delete this source?", `“${row.current.title}” and the wiki pages made from it will be deleted. This cannot be undone.`);
      if (!ok) return deleteBtn.focus();
      actionError.textContent = "";
      try {
        await api(API.source(brain.id, row.current.id), { method: "DELETE", signal });
        announce(`Deleted “${row.current.title}”`);
        await refresh();
        $("#sources-title")?.focus();
      } catch (e) {
        if (e?.name !== "AbortError") actionError.textContent = e.message;
      }
    });
    return row;
  };

  if (owned)
    panel.append(
      addSourceCard(brain, signal, {
        refresh,
        uploading: (delta) => (pendingUploads += delta),
        watch: (fn) => watchers.add(fn),
      }),
    );
  add(panel, [
    h("section", { class: "card stack", "aria-labelledby": "sources-title" }, h("div", { class: "row spread" }, h("h2", { id: "sources-title", tabindex: "-1" }, "Sources"), summary), listError, listBox),
  ]);
  await refresh();
}
