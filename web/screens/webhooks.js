// Webhooks in a brain's settings: the account's hooks that take this brain, adding one (its signing secret
// shown once, with copy), sending a test event, turning a hook off and on, and each hook's delivery log.
import { API, api, missingRoute } from "../lib/api.js";
import { announce, confirmDialog, copyText, field, fill, h, labelTables } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";
import { fmtDate } from "../lib/format.js";

const EVENTS = [
  ["source.ready", "A source is ready"],
  ["source.failed", "A source failed"],
  ["source.removed", "A source was removed"],
  ["page.changed", "A page's text changed"],
  ["connector.run.finished", "A connector's run finished"],
];

export function brainWebhooksSection(brain, signal) {
  const box = errorBox();
  const fresh = h("div");
  const listBox = h("div", { class: "stack" });
  const listError = errorBox();
  const url = h("input", { type: "url", name: "url", required: true, maxlength: "2000", placeholder: "https://example.com/hooks/brainbox" });
  const checks = EVENTS.map(([name, label]) => {
    const box = h("input", { type: "checkbox", name: "events", value: name });
    box.defaultChecked = name === "source.ready"; // what a reset of the form comes back to
    return h("label", { class: "check" }, box, ` ${label} (${name})`);
  });
  const form = h(
    "form",
    { class: "form-grid", "aria-label": "Add a webhook" },
    field("Receiver URL", url, "Called with a signed POST for each event", "wide"),
    field("Brains", h("select", { name: "scope" }, h("option", { value: "brain" }, "This brain"), h("option", { value: "all" }, "Every brain of my account"))),
    h("fieldset", { class: "wide stack" }, h("legend", {}, "Events"), ...checks),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Add webhook")),
    h("div", { class: "wide" }, box),
  );

  const load = async () => {
    try {
      const { webhooks } = await api(API.webhooks, { signal });
      const mine = webhooks.filter((w) => !w.brainIds || w.brainIds.includes(brain.id));
      fill(listError);
      fill(listBox, mine.length ? mine.map(hookCard) : h("p", { class: "empty" }, "No webhook takes this brain's events."));
      labelTables(listBox);
    } catch (e) {
      if (missingRoute(e)) return fill(listBox, h("p", { class: "notice" }, "This server does not offer webhooks yet."));
      showError(listError, e);
    }
  };

  const hookCard = (w) => {
    const rowError = h("p", { class: "cell-error", role: "alert" });
    const log = h("div", { class: "table-wrap", hidden: true });
    const act = (label, cls, run) => {
      const b = h("button", { type: "button", class: `small ${cls}`, "aria-label": `${label}: ${w.url}` }, label);
      b.addEventListener("click", async () => {
        rowError.textContent = "";
        try {
          await run(b);
        } catch (e) {
          if (e?.name !== "AbortError") rowError.textContent = e.message;
        }
      });
      return b;
    };
    const showLog = async () => {
      const { deliveries } = await api(API.webhookDeliveries(w.id), { signal });
      fill(log, deliveryTable(deliveries));
      labelTables(log);
      log.hidden = false;
    };
    const status = w.enabled ? h("span", { class: "badge ready" }, "on") : h("span", { class: "badge failed" }, "off");
    return h(
      "article",
      { class: "card stack", "data-webhook-id": w.id },
      h("div", { class: "row" }, h("strong", { class: "mono grow" }, w.url), status),
      h("p", { class: "small muted" }, `${w.events.join(", ")} · ${w.brainIds ? "this brain" : "every brain"} · added ${fmtDate(w.createdAt)}`),
      w.disabledReason ? h("p", { class: "notice", role: "status" }, w.disabledReason) : null,
      h(
        "div",
        { class: "actions" },
        act("Send test event", "secondary", async () => {
          await api(API.webhookTest(w.id), { method: "POST", signal });
          announce("Test event queued");
          await waitThenShow(showLog);
        }),
        act(w.enabled ? "Turn off" : "Turn on", "secondary", async () => {
          await api(API.webhook(w.id), { method: "PATCH", json: { enabled: !w.enabled }, signal });
          announce(w.enabled ? "Webhook turned off" : "Webhook turned on");
          await load();
        }),
        act("Delivery log", "secondary", showLog),
        act("Delete", "danger", async (b) => {
          if (!(await confirmDialog("Delete this webhook?", `${w.url} gets no more events; its delivery log is deleted.`, "Delete webhook"))) return b.focus();
          await api(API.webhook(w.id), { method: "DELETE", signal });
          announce("Webhook deleted");
          await load();
        }),
      ),
      rowError,
      log,
    );
  };

  onSubmit(form, box, async (fd) => {
    const events = fd.getAll("events").map(String);
    if (!events.length) throw new Error("Choose at least one event to send.");
    const json = { url: String(fd.get("url")).trim(), events, ...(fd.get("scope") === "brain" ? { brainIds: [brain.id] } : {}) };
    const created = await api(API.webhooks, { method: "POST", json, signal });
    form.reset();
    fill(fresh, secretPanel(created.secret));
    fresh.querySelector("input").focus();
    await load();
  });

  const section = h(
    "section",
    { class: "card stack", "aria-labelledby": "webhooks" },
    h("h2", { id: "webhooks" }, "Webhooks"),
    h("p", { class: "muted small" }, "Tell another system when this brain changes: each event is a signed POST (Standard Webhooks), retried until the receiver answers 2xx. Webhooks belong to your account; one for every brain appears in each brain's settings."),
    form,
    fresh,
    listError,
    listBox,
  );
  return load().then(() => section);
}

/** A test event is sent by the job loop within moments: show the log once it has had a chance. */
async function waitThenShow(show) {
  await show();
  await new Promise((r) => setTimeout(r, 1500));
  await show();
}

function secretPanel(secret) {
  const input = h("input", { type: "text", readonly: true, value: secret, "aria-label": "The webhook's signing secret", class: "mono", spellcheck: "false" });
  input.addEventListener("focus", () => input.select());
  const copy = h("button", { type: "button" }, "Copy");
  copy.addEventListener("click", () => copyText(secret, copy, input));
  const dismiss = h("button", { type: "button", class: "secondary" }, "I have stored it");
  const panel = h(
    "div",
    { class: "key-once stack", role: "status" },
    h("h3", {}, "Webhook added"),
    h("p", {}, h("strong", {}, "Copy the signing secret now. "), "It will not be shown again; the receiver verifies each delivery with it."),
    h("div", { class: "row" }, h("div", { class: "field grow" }, input), copy, dismiss),
  );
  dismiss.addEventListener("click", () => panel.remove());
  return panel;
}

function deliveryTable(deliveries) {
  if (!deliveries.length) return h("p", { class: "empty" }, "Nothing sent yet.");
  const badge = (s) => h("span", { class: `badge ${s === "delivered" ? "ready" : s}` }, s);
  return h(
    "table",
    { class: "data" },
    h("caption", { class: "visually-hidden" }, "Delivery log"),
    h("thead", {}, h("tr", {}, ...["Event", "Status", "Attempts", "Answer", "Error", "Time"].map((t) => h("th", { scope: "col" }, t)))),
    h(
      "tbody",
      {},
      deliveries.map((d) =>
        h(
          "tr",
          { "data-delivery-id": d.id },
          h("td", { class: "mono small" }, d.event),
          h("td", {}, badge(d.status)),
          h("td", {}, String(d.attempts)),
          h("td", { class: "small" }, d.statusCode === null ? "—" : `HTTP ${d.statusCode}`),
          h("td", { class: "small" }, d.error ?? ""),
          h("td", { class: "small nowrap" }, fmtDate(d.lastAttemptAt ?? d.createdAt)),
        ),
      ),
    ),
  );
}
