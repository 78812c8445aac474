// Plan & usage: the account, its question allowance, what this server runs (and how to turn more on), the
// owner's payments (payments.js) and, for the admin, every account.
import { API, api, session } from "../lib/api.js";
import { add, announce, confirmDialog, field, fill, h, labelCells } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";
import { fmtDate } from "../lib/format.js";
import { paymentsSection } from "./payments.js";
import { newKeyPanel } from "./keys.js";
import { rerender } from "../lib/router.js";
import { peopleById, personActions } from "./people-admin.js";

/** What the server runs, in words, and the one step that turns on what is off. */
function serverCard(health) {
  const emb = health.embedder ?? {};
  const gen = health.generator ?? {};
  const semantic = emb.retrieval === "hybrid";
  const model = gen.active && gen.active !== "extractive";
  return h(
    "section",
    { class: "card stack", "aria-labelledby": "server" },
    h("h2", { id: "server" }, "Server"),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Version"),
      h("dd", {}, health.version ?? "—"),
      h("dt", {}, "Database"),
      h("dd", {}, `${health.database?.kind === "embedded" ? "Built in" : health.database?.kind === "remote" ? "Remote" : "—"} · ${health.database?.ok ? "working" : "unavailable"}`),
      h("dt", {}, "Search"),
      h("dd", {}, semantic ? `By meaning and by words (${emb.active})` : "By words only"),
      h("dt", {}, "Answers"),
      h("dd", {}, model ? `Written by a local model (${gen.model ?? gen.active})` : "Quoted from the pages (no model)"),
    ),
    semantic
      ? null
      : h(
          "p",
          { class: "small notice" },
          h("strong", {}, "Search by meaning is off. "),
          "To turn it on, run ",
          h("code", {}, "brainbox models pull Xenova/bge-small-en-v1.5"),
          " and set ",
          h("code", {}, "BRAINBOX_EMBED_MODEL=Xenova/bge-small-en-v1.5"),
          ", then restart.",
          emb.error ? ` The model could not be loaded: ${emb.error}` : "",
        ),
    model
      ? null
      : h(
          "p",
          { class: "small notice" },
          h("strong", {}, "No model writes answers. "),
          gen.reachable === false && gen.model
            ? [`The model server (${gen.provider ?? "ollama"}) is set up but not reachable (${gen.error ?? "no answer"}): check that it runs and has the model `, h("code", {}, gen.model), "."]
            : [
                "To have answers written in full sentences, install Ollama, pull a model (",
                h("code", {}, "ollama pull llama3.2"),
                ") and set ",
                h("code", {}, "BRAINBOX_OLLAMA_URL=http://127.0.0.1:11434"),
                ", or point ",
                h("code", {}, "BRAINBOX_LLM_URL"),
                " at an OpenAI-compatible server (vLLM, llama.cpp, LM Studio), then restart.",
              ],
        ),
  );
}

export async function accountScreen(view, signal) {
  const [data, health] = await Promise.all([api(API.account, { signal }), api(API.health, { signal, key: null }).catch(() => null)]);
  const account = data.account ?? data;
  const usage = data.usage;
  session.account = account;
  session.usage = usage ?? null;
  const who = document.querySelector("#who");
  if (who) who.textContent = `${account.name ?? "Account"}${account.plan ? ` · ${account.plan}` : ""}`;
  const meter = (label, q) =>
    q
      ? h(
          "div",
          { class: "meter" },
          h("div", { class: "row spread" }, h("strong", {}, label), h("span", { class: "small" }, `${q.used} of ${q.limit} used · ${q.remaining} left`)),
          h("progress", { max: String(Math.max(q.limit, 1)), value: String(Math.min(q.used, q.limit)), "aria-label": `${label}: ${q.used} of ${q.limit} used` }),
          h("span", { class: "muted small" }, q.resetsAt ? `Resets ${fmtDate(q.resetsAt)} (per ${q.period})` : q.period === "lifetime" ? "Lifetime: does not reset" : ""),
        )
      : null;
  add(view, [
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Plan & usage")),
    h(
      "div",
      { class: "grid-2" },
      h(
        "section",
        { class: "card stack", "aria-labelledby": "acct" },
        h("h2", { id: "acct" }, "Account"),
        h(
          "dl",
          { class: "facts" },
          h("dt", {}, "Name"),
          h("dd", {}, account.name ?? "—"),
          h("dt", {}, "Plan"),
          h("dd", {}, h("span", { class: "badge public" }, account.plan ?? usage?.plan ?? "—")),
          h("dt", {}, "Role"),
          h("dd", {}, account.isAdmin ? "Admin of this installation" : "Member"),
          h("dt", {}, "Brain sets"),
          h("dd", {}, usage ? (usage.brainSets ? "Included" : "Not on this plan") : "—"),
          h("dt", {}, "Since"),
          h("dd", {}, fmtDate(account.createdAt)),
        ),
      ),
      usage
        ? h(
            "section",
            { class: "card stack", "aria-labelledby": "usage" },
            h("h2", { id: "usage" }, "Questions"),
            h("p", { class: "muted small" }, usage.metering === "bank" ? "Each question asked on this page, through the API or by an MCP client uses one question from a bank that does not refill." : "Each question asked on this page, through the API or by an MCP client counts against your plan's allowance, which refills every period."),
            usage.metering === "bank" ? meter("Questions left", usage.bank) : meter("Questions this period", usage.quota),
            meter("Questions per day from simple API clients", usage.daily),
            h("p", { class: "muted small" }, "Simple API clients (the short /api/brains/… addresses) have their own daily allowance. Getting context without an answer is never counted."),
          )
        : null,
      health ? serverCard(health) : null,
      signInCard(account),
    ),
  ]);
  const payments = await paymentsSection(signal);
  if (payments) view.append(payments);
  if (account.isAdmin) view.append(await adminAccountsSection(signal));
}

/** How this person signs in, and "sign out everywhere" (every browser's session ends; API keys stay). */
function signInCard(account) {
  const box = errorBox();
  const button = h("button", { type: "button", class: "secondary" }, "Sign out everywhere");
  button.addEventListener("click", async () => {
    const ok = await confirmDialog("Sign out everywhere?", "Every browser signed in to this account, this one included, is signed out. API keys and connected applications keep working.", "Sign out everywhere");
    if (!ok) return;
    try {
      await api(API.signOutEverywhere, { method: "POST" });
    } catch (e) {
      return showError(box, e);
    }
    session.signOut();
    announce("Signed out everywhere");
    history.replaceState(null, "", "#/");
    rerender(true);
  });
  return h(
    "section",
    { class: "card stack", "aria-labelledby": "signin-card" },
    h("h2", { id: "signin-card" }, "Sign-in"),
    h("dl", { class: "facts" }, h("dt", {}, "Email"), h("dd", {}, account.email ?? "—")),
    h("p", { class: "muted small" }, "Lost a device, or signed in on a shared computer? End every session of this account at once."),
    box,
    h("div", { class: "actions" }, button),
  );
}

/** Admin only: every account, its plan, and new accounts (their first key shown once). */
async function adminAccountsSection(signal) {
  const section = h("section", { class: "card stack", "aria-labelledby": "accounts" }, h("h2", { id: "accounts" }, "Accounts"));
  const listBox = h("div", { class: "table-wrap" });
  const box = errorBox();
  const fresh = h("div");
  const plans = ["free", "pro", "team"];
  const form = h(
    "form",
    { class: "form-grid" },
    field("Account name", h("input", { type: "text", name: "name", required: true, maxlength: "120" })),
    field("Plan", h("select", { name: "plan" }, plans.map((p) => h("option", { value: p }, p)))),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Create account")),
    h("div", { class: "wide" }, box),
  );
  const linkOut = h("div");
  const load = async () => {
    const [{ accounts }, people] = await Promise.all([api(API.adminAccounts, { signal }), peopleById(signal)]);
    fill(listBox,
      labelCells(h(
        "table",
        { class: "data" },
        h("caption", { class: "visually-hidden" }, "Accounts"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, "Plan"), h("th", { scope: "col" }, "Sign-in"), h("th", { scope: "col", class: "hide-narrow" }, "Created"))),
        h(
          "tbody",
          {},
          accounts.map((a) => {
            const select = h("select", { "aria-label": `Plan of ${a.name}` }, plans.map((p) => h("option", { value: p, selected: p === a.plan }, p)));
            const err = h("span", { class: "cell-error", role: "alert" });
            select.addEventListener("change", async () => {
              err.textContent = "";
              try {
                await api(API.adminAccount(a.id), { method: "PATCH", json: { plan: select.value }, signal });
                announce(`${a.name} is now on ${select.value}`);
              } catch (e) {
                err.textContent = e.message;
                select.value = a.plan;
              }
            });
            const actions = personActions(a, people.get(a.id), { out: linkOut, reload: load, signal, self: a.id === session.account?.id });
            const deactivated = people.get(a.id)?.deactivatedAt ? h("span", { class: "sub" }, "deactivated") : null;
            return h("tr", {}, h("td", { class: "title-cell" }, a.name, a.isAdmin ? h("span", { class: "sub" }, "admin") : null, deactivated), h("td", {}, select, err), h("td", {}, actions), h("td", { class: "small nowrap hide-narrow" }, fmtDate(a.createdAt)));
          }),
        ),
      )),
    );
  };
  onSubmit(form, box, async (fd) => {
    const res = await api(API.adminAccounts, { method: "POST", json: { name: String(fd.get("name")).trim(), plan: fd.get("plan") }, signal });
    form.reset();
    fill(fresh, newKeyPanel(res.apiKey.key, `Account “${res.account.name}” created: its first key`));
    await load();
  });
  add(section, [form, fresh, linkOut, listBox]);
  try {
    await load();
  } catch (e) {
    showError(box, e);
  }
  return section;
}
