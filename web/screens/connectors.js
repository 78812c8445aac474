// A brain's connectors: each with its status, last and next run, counts and first errors in plain words;
// owners add them (connector-form.js), sync now, pause or resume, and delete. Polls while a run is going.
import { API, api } from "../lib/api.js";
import { add, announce, confirmDialog, fill, h } from "../lib/dom.js";
import { errorBox, showError } from "../lib/forms.js";
import { fmtDate, plural } from "../lib/format.js";
import { every } from "../lib/router.js";
import { addConnectorCard } from "./connector-form.js";

const POLL_MS = 1500;
const DUE_SOON_MS = 15_000;
const RUNNING = new Set(["queued", "running"]);
/** A run's status in words, and the badge it wears. */
const STATUS = {
  queued: ["Waiting to start", "pending"],
  running: ["Syncing", "processing"],
  succeeded: ["Synced", "ready"],
  failed: ["Failed", "failed"],
  cancelled: ["Cancelled", ""],
};

export async function connectorsTab(panel, brain, _rest, signal, owned) {
  const list = h("div", { class: "stack", id: "connector-list" });
  const listError = errorBox();
  let stopPoll = null;
  const load = async () => {
    try {
      const { connectors } = await api(API.connectors(brain.id), { signal });
      fill(listError);
      fill(list, connectors.length ? connectors.map((c) => connectorCard(c)) : h("p", { class: "empty" }, owned ? "No connectors yet. Add one below to keep this brain in sync with a website, a feed, a Git repository, a server folder or its own links." : "No connectors."));
      // Polls while a run goes on, and while one is due (the scheduler starts it within seconds).
      const dueSoon = (c) => !c.paused && c.nextRunAt && Date.parse(c.nextRunAt) < Date.now() + DUE_SOON_MS;
      const active = connectors.some((c) => (c.lastRun && RUNNING.has(c.lastRun.status)) || dueSoon(c));
      if (active && !stopPoll) stopPoll = every(POLL_MS, load);
      if (!active && stopPoll) (stopPoll(), (stopPoll = null));
    } catch (e) {
      showError(listError, e);
    }
  };

  const act = async (c, box, what, work) => {
    fill(box);
    try {
      await work();
      announce(`${c.name}: ${what}`);
      await load();
    } catch (e) {
      showError(box, e);
    }
  };

  const connectorCard = (c) => {
    const run = c.lastRun;
    const [words, badge] = run ? STATUS[run.status] : ["Not run yet", ""];
    const box = errorBox();
    const counts = run
      ? `${run.counts.added} added, ${run.counts.updated} updated, ${run.counts.unchanged} unchanged, ${run.counts.removed} removed, ${run.counts.failed} failed`
      : "";
    const syncBtn = h("button", { type: "button", class: "small", disabled: run && RUNNING.has(run.status) }, "Sync now");
    const pauseBtn = h("button", { type: "button", class: "secondary small" }, c.paused ? "Resume" : "Pause");
    const deleteBtn = h("button", { type: "button", class: "danger small" }, "Delete");
    syncBtn.addEventListener("click", () => act(c, box, "sync started", () => api(API.connectorSync(brain.id, c.id), { method: "POST", signal })));
    pauseBtn.addEventListener("click", () => act(c, box, c.paused ? "resumed" : "paused", () => api(API.connector(brain.id, c.id), { method: "PATCH", json: { paused: !c.paused }, signal })));
    deleteBtn.addEventListener("click", async () => {
      const ok = await confirmDialog(`Delete “${c.name}”?`, "The connector stops syncing. Its sources are removed from the brain with it.");
      if (ok) await act(c, box, "deleted", () => api(API.connector(brain.id, c.id), { method: "DELETE", json: { removeSources: true }, signal }));
    });
    return h(
      "article",
      { class: "card stack", "data-connector-id": c.id },
      h("div", { class: "page-head" }, h("h3", {}, c.name), h("span", { class: "badge" }, c.kind), h("span", { class: `badge ${badge} run-status` }, words), c.paused ? h("span", { class: "badge" }, "paused") : null),
      h("p", { class: "muted small" }, describe(c)),
      h(
        "dl",
        { class: "facts small" },
        h("dt", {}, "Schedule"),
        h("dd", {}, c.paused ? `${c.schedule} (paused)` : c.schedule),
        h("dt", {}, "Last run"),
        h("dd", {}, run ? `${fmtDate(run.finishedAt ?? run.startedAt ?? run.createdAt)}${counts ? `: ${counts}` : ""}` : "none yet"),
        h("dt", {}, "Next run"),
        h("dd", {}, c.nextRunAt ? fmtDate(c.nextRunAt) : c.paused ? "paused" : "when you press Sync now"),
      ),
      run?.errors?.length
        ? h("div", { class: "notice small run-errors" }, h("strong", {}, plural(run.errors.length, "problem") + " in the last run:"), h("ul", {}, run.errors.slice(0, 5).map((e) => h("li", {}, e))))
        : null,
      owned ? h("div", { class: "actions" }, syncBtn, pauseBtn, deleteBtn) : null,
      box,
    );
  };

  add(panel, [h("section", { class: "stack", "aria-labelledby": "connectors-h" }, h("h2", { id: "connectors-h" }, "Connectors"), listError, list)]);
  if (owned) panel.append(addConnectorCard(brain, signal, () => load()));
  await load();
}

function describe(c) {
  if (c.kind === "website") {
    const where = [...(c.config.startUrls ?? []), ...(c.config.sitemap ? [c.config.sitemap] : []), ...(c.config.sitemaps ?? [])];
    return `Pages of ${where.join(", ")}${c.secrets?.headers ? " (with a secret header)" : ""}`;
  }
  if (c.kind === "feed") return `Entries of ${c.config.url}`;
  if (c.kind === "links") return "Re-reads this brain's links";
  if (c.kind === "git") return `Files of ${c.config.url ?? c.config.path} (branch ${c.config.branch ?? "main"})${c.secrets?.token ? " (with a token)" : ""}`;
  if (c.kind === "folder") return `Files in ${c.config.path}`;
  return c.kind;
}
