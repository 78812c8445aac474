// Server admin: per person, a one-time password reset link (shown here, to hand over) and deactivation
// (every session, key and connection of the person ends at once) or reactivation. Used by the account
// screen's list of accounts.
import { api, enc } from "../lib/api.js";
import { announce, confirmDialog, copyText, fill, h } from "../lib/dom.js";

export const peopleApi = {
  list: "/api/v1/people",
  deactivate: (id) => `/api/v1/people/${enc(id)}/deactivate`,
  reactivate: (id) => `/api/v1/people/${enc(id)}/reactivate`,
  resetLink: (id) => `/api/v1/people/${enc(id)}/reset-link`,
};

/** People by account id (email, deactivation); empty when this server has no people routes. */
export async function peopleById(signal) {
  try {
    const { people } = await api(peopleApi.list, { signal });
    return new Map(people.map((p) => [p.id, p]));
  } catch {
    return new Map();
  }
}

/** The actions cell of one person's row; `out` shows a reset link, `reload` redraws the list. */
export function personActions(account, person, { out, reload, signal, self }) {
  if (!person) return null;
  const err = h("span", { class: "cell-error", role: "alert" });
  const run = (fn) => async () => {
    err.textContent = "";
    try {
      await fn();
    } catch (e) {
      err.textContent = e.message;
    }
  };
  const reset = h("button", { type: "button", class: "secondary", "aria-label": `Reset link for ${account.name}` }, "Reset link");
  reset.addEventListener("click", run(async () => {
    const link = await api(peopleApi.resetLink(account.id), { method: "POST", signal });
    fill(out, linkPanel(account.name, link));
  }));
  const deactivated = Boolean(person.deactivatedAt);
  const toggle = h("button", { type: "button", class: deactivated ? "secondary" : "danger", "aria-label": `${deactivated ? "Reactivate" : "Deactivate"} ${account.name}` }, deactivated ? "Reactivate" : "Deactivate");
  toggle.addEventListener("click", run(async () => {
    if (!deactivated) {
      const ok = await confirmDialog(`Deactivate ${account.name}?`, "Their sessions, API keys and connected applications stop working at once. Reactivating lets them sign in with their password again; old keys stay revoked.", "Deactivate");
      if (!ok) return;
    }
    await api(deactivated ? peopleApi.reactivate(account.id) : peopleApi.deactivate(account.id), { method: "POST", signal });
    announce(`${account.name} ${deactivated ? "reactivated" : "deactivated"}`);
    await reload();
  }));
  return h("div", { class: "row" }, person.email ? h("span", { class: "small" }, person.email) : null, reset, self ? null : toggle, err);
}

function linkPanel(name, link) {
  const input = h("input", { type: "text", readonly: true, value: link.url, "aria-label": `Reset link for ${name}`, class: "mono", spellcheck: "false" });
  const copy = h("button", { type: "button" }, "Copy");
  copy.addEventListener("click", () => copyText(link.url, copy, input));
  return h("div", { class: "notice stack" }, h("strong", {}, `One-time link for ${name}, until ${new Date(link.expiresAt).toLocaleString()}:`), h("div", { class: "row" }, input, copy));
}

