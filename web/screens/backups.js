// Backups (the installation's admin only; docs/backup.md): every backup newest first with its status and,
// while it runs, its phase and progress; "Back up now" starts one and follows it until it is ready or failed;
// a ready one downloads, any finished one is deleted after confirming. Restoring is the command line's.
import { API, api, session } from "../lib/api.js";
import { announce, confirmDialog, fill, h, labelTables } from "../lib/dom.js";
import { downloadLink } from "../lib/download.js";
import { errorBox, showError } from "../lib/forms.js";
import { fmtBytes, fmtDate } from "../lib/format.js";

/** Polling a running backup: soon at first (a small one is done in moments), then less and less often. */
const POLL_FIRST_MS = 400;
const POLL_MAX_MS = 5000;
const POLL_GROWTH = 1.6;

export async function backupsScreen(view, signal) {
  const head = h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Backups"));
  if (!session.account?.isAdmin) {
    fill(view, head, h("p", { class: "notice", role: "status" }, "Only the server's admin makes and downloads backups: a backup holds every brain of every account."));
    return;
  }
  const box = errorBox();
  const listBox = h("div", { class: "table-wrap" });
  const start = h("button", { type: "button" }, "Back up now");
  const names = await accountNames(signal);
  const following = new Set();

  const load = async () => {
    const { backups } = await api(API.backups, { signal });
    fill(listBox, backups.length ? backupTable(backups, { names, remove, signal, onError: (e) => showError(box, e) }) : h("p", { class: "empty" }, "No backups yet."));
    labelTables(listBox);
    for (const b of backups) if (b.status === "running") follow(b.id);
    return backups;
  };

  /** Follows one running backup until it has finished, then redraws the list; ends with the screen. */
  const follow = (id) => {
    if (following.has(id)) return;
    following.add(id);
    void (async () => {
      let wait = POLL_FIRST_MS;
      for (;;) {
        await sleep(wait, signal);
        const { backup } = await api(API.backup(id), { signal });
        if (backup.status !== "running") break;
        updateProgress(listBox, backup);
        wait = Math.min(POLL_MAX_MS, wait * POLL_GROWTH);
      }
      following.delete(id);
      await load();
      const done = listBox.querySelector(`tr[data-backup-id="${CSS.escape(id)}"]`)?.dataset.status;
      announce(done === "ready" ? "The backup is ready" : "The backup failed");
    })().catch((e) => {
      following.delete(id);
      if (e?.name !== "AbortError") showError(box, e);
    });
  };

  const remove = async (b, button) => {
    if (!(await confirmDialog("Delete this backup?", `The archive of ${fmtDate(b.createdAt)} (${fmtBytes(b.size ?? 0)}) is deleted from the server. Copies you downloaded are kept.`, "Delete backup"))) return button.focus();
    try {
      await api(API.backup(b.id), { method: "DELETE", signal });
      announce("Backup deleted");
      await load();
    } catch (e) {
      showError(box, plainConflict(e, "The backup is still running: it can be deleted once it has finished."));
    }
  };

  start.addEventListener("click", async () => {
    fill(box);
    start.disabled = true;
    try {
      const { backup } = await api(API.backups, { method: "POST", signal });
      announce("Backup started");
      await load();
      follow(backup.id);
    } catch (e) {
      showError(box, plainConflict(e, "A backup is already running: wait for it to finish, then start another."));
    } finally {
      start.disabled = false;
    }
  });

  fill(
    view,
    head,
    h("p", { class: "muted" }, "A backup is the whole installation in one archive (a tar): every account, brain, page, key, audit event and uploaded file. It is made while the server runs; one runs at a time, and the oldest beyond BRAINBOX_BACKUP_KEEP are deleted. Copy the archives off this machine: a backup on the same disk as the data does not survive the disk."),
    h("div", { class: "actions" }, start),
    box,
    listBox,
    restoreHelp(),
  );
  await load();
}

function backupTable(backups, { names, remove, signal, onError }) {
  const headers = ["Created", "Status", "Progress", "Size", "Files", "Schema", "Note", "Created by", "Actions"];
  return h(
    "table",
    { class: "data" },
    h("caption", { class: "visually-hidden" }, "Backups, newest first"),
    h("thead", {}, h("tr", {}, ...headers.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, backups.map((b) => backupRow(b, { names, remove, signal, onError }))),
  );
}

function backupRow(b, { names, remove, signal, onError }) {
  const when = fmtDate(b.createdAt);
  const badge = h("span", { class: `badge ${b.status === "running" ? "processing" : b.status}` }, b.status);
  const actions = h("div", { class: "row" });
  if (b.status === "ready")
    actions.append(downloadLink(API.backupDownload(b.id), "Download", { filename: `brainbox-${b.id}.tar`, ariaLabel: `Download the backup of ${when}`, onError, signal, cls: "button small secondary" }));
  if (b.status !== "running") {
    const del = h("button", { type: "button", class: "small danger", "aria-label": `Delete the backup of ${when}` }, "Delete");
    del.addEventListener("click", () => remove(b, del));
    actions.append(del);
  }
  return h(
    "tr",
    { "data-backup-id": b.id, "data-status": b.status },
    h("td", { class: "small nowrap" }, h("time", { datetime: b.createdAt }, when)),
    h("td", {}, badge, b.error ? h("div", { class: "cell-error" }, b.error) : null),
    h("td", { class: "progress-cell" }, progressOf(b)),
    h("td", { class: "small nowrap" }, b.size === null ? "—" : fmtBytes(b.size)),
    h("td", {}, b.files === null ? "—" : String(b.files)),
    h("td", { class: "mono small" }, b.schema ?? "—"),
    h("td", { class: "small" }, b.note ?? (b.uploadsIncluded === false ? "Uploads not included" : "")),
    h("td", { class: "small" }, b.createdBy ? names.get(b.createdBy) ?? b.createdBy : "—"),
    h("td", {}, actions),
  );
}

/** The phase and, while running, how far it has got (bytes of the current phase). */
function progressOf(b) {
  if (b.status !== "running") return h("span", { class: "small muted" }, b.finishedAt ? `finished ${fmtDate(b.finishedAt)}` : "");
  const total = b.bytesTotal || 0;
  const bar = h("progress", { max: String(total || 1), value: String(total ? b.bytesDone : 0), "aria-label": `Progress of the backup of ${fmtDate(b.createdAt)}` });
  const text = total ? `${b.phase}: ${fmtBytes(b.bytesDone)} of ${fmtBytes(total)}` : `${b.phase}…`;
  return [h("span", { class: "small" }, text), bar];
}

function updateProgress(listBox, backup) {
  const cell = listBox.querySelector(`tr[data-backup-id="${CSS.escape(backup.id)}"] .progress-cell`);
  if (cell) fill(cell, progressOf(backup));
}

function restoreHelp() {
  return h(
    "section",
    { class: "card stack", "aria-labelledby": "restore" },
    h("h2", { id: "restore" }, "Restoring a backup"),
    h("p", {}, "Restore is done on the command line, never from this page: it writes a new data dir, which must be empty or not exist yet, and checks every file of the archive before it trusts it. Then start a server on that data dir; it applies any migration newer than the backup's."),
    h("pre", { class: "context", "aria-label": "The restore command" }, "BRAINBOX_DATA_DIR=/srv/new-data brainbox restore /path/to/brainbox-backup.tar\nBRAINBOX_DATA_DIR=/srv/new-data brainbox serve"),
    h("p", { class: "muted small" }, "With uploads in an S3-compatible bucket, the archive holds the database only (the Note column says so): back the bucket up with its own tools."),
  );
}

/** A 409 in the words of what to do about it; any other error as it came. */
function plainConflict(e, words) {
  if (e?.status === 409) e.message = words;
  return e;
}

/** Account id → name, for "Created by" (the admin reads every account); ids alone when that fails. */
async function accountNames(signal) {
  try {
    const { accounts } = await api(API.adminAccounts, { signal });
    return new Map(accounts.map((a) => [a.id, a.name ?? a.id]));
  } catch (e) {
    if (e?.name === "AbortError") throw e;
    return new Map();
  }
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new DOMException("Aborted", "AbortError"));
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), reject(new DOMException("Aborted", "AbortError"))), { once: true });
  });
}
