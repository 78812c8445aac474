// API keys (created shown once, revoked), connected OAuth apps, and the MCP endpoints to connect a client.
import { API, api, missingRoute, session } from "../lib/api.js";
import { $, add, announce, confirmDialog, copyText, field, fill, h, labelTables } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";
import { fmtDate } from "../lib/format.js";

export async function keysScreen(view, signal) {
  const box = errorBox();
  const fresh = h("div");
  const listBox = h("div", { class: "table-wrap" });
  const listError = errorBox();
  const name = h("input", { type: "text", name: "name", required: true, maxlength: "100", placeholder: "e.g. laptop, CI, MCP connector" });
  const form = h(
    "form",
    { class: "form-grid" },
    field("Key name", name, "A label to recognise the key by"),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Create key")),
    h("div", { class: "wide" }, box),
  );
  const mine = (k) => session.key && k.hint && session.key.endsWith(k.hint.slice(-4)) && session.key.startsWith(k.prefix ?? "");

  const load = async () => {
    try {
      const { apiKeys } = await api(API.keys, { signal });
      fill(listError);
      fill(listBox,
        apiKeys.length
          ? h(
              "table",
              { class: "data" },
              h("caption", { class: "visually-hidden" }, "API keys"),
              h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, "Key"), h("th", { scope: "col", class: "hide-narrow" }, "Created"), h("th", { scope: "col", class: "hide-narrow" }, "Last used"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")))),
              h("tbody", {}, apiKeys.map((k) => keyRow(k))),
            )
          : h("p", { class: "empty" }, "No keys."),
      );
      labelTables(listBox);
    } catch (e) {
      showError(listError, e);
    }
  };

  const keyRow = (k) => {
    const revoke = h("button", { type: "button", class: "danger small", "aria-label": `Revoke ${k.name}` }, "Revoke");
    const rowError = h("span", { class: "cell-error", role: "alert" });
    revoke.addEventListener("click", async () => {
      const self = mine(k);
      const ok = await confirmDialog(
        `Revoke “${k.name}”?`,
        self ? "This looks like the key this tab is signed in with: you will be signed out. Anything using it gets 401 from now on." : "Anything using this key gets 401 from now on. This cannot be undone.",
        "Revoke key",
      );
      if (!ok) return revoke.focus();
      try {
        await api(API.key(k.id), { method: "DELETE", signal });
        // A revoked key must not stay on screen under "Copy this key now".
        if (fresh.dataset.keyId === k.id) (fill(fresh), delete fresh.dataset.keyId);
        announce(`Key “${k.name}” revoked`);
        await load();
      } catch (e) {
        if (e?.name !== "AbortError") rowError.textContent = e.message;
      }
    });
    return h(
      "tr",
      { "data-key-id": k.id },
      h("td", { class: "title-cell" }, k.name, mine(k) ? h("span", { class: "sub" }, "this tab's key (probably)") : null),
      h("td", { class: "mono small nowrap" }, k.hint ?? k.prefix ?? ""),
      h("td", { class: "small nowrap hide-narrow" }, fmtDate(k.createdAt)),
      h("td", { class: "small nowrap hide-narrow" }, k.lastUsedAt ? fmtDate(k.lastUsedAt) : "never"),
      h("td", {}, k.revokedAt ? h("span", { class: "badge failed", title: `Revoked ${fmtDate(k.revokedAt)}` }, "revoked") : h("span", { class: "badge ready" }, "active")),
      h("td", {}, k.revokedAt ? null : revoke, rowError),
    );
  };

  onSubmit(form, box, async (fd) => {
    const created = await api(API.keys, { method: "POST", json: { name: String(fd.get("name")).trim() }, signal });
    form.reset();
    fill(fresh, newKeyPanel(created.key, `Key “${created.name}” created`));
    fresh.dataset.keyId = created.id;
    $("input", fresh).focus();
    await load();
  });

  const apps = connectedAppsSection(signal);
  const mcp = mcpConnectSection(signal);
  add(view, [
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "API keys")),
    h("p", { class: "muted" }, "A key carries your account's full access: treat it as a password. Only a hash is stored, so the full key is shown once, when it is created."),
    h("section", { class: "card stack", "aria-labelledby": "new-key" }, h("h2", { id: "new-key" }, "Create a key"), form, fresh),
    h("section", { class: "card stack", "aria-labelledby": "key-list" }, h("h2", { id: "key-list" }, "Your keys"), listError, listBox),
    mcp.section,
    apps.section,
  ]);
  await Promise.all([load(), apps.load(), mcp.load()]);
}

/** Applications connected with OAuth (MCP hosts and other connectors): when, last use, and revoking them. */
function connectedAppsSection(signal) {
  const listBox = h("div", { class: "table-wrap" });
  const listError = errorBox();
  const section = h(
    "section",
    { class: "card stack", "aria-labelledby": "apps" },
    h("h2", { id: "apps" }, "Connected apps"),
    h("p", { class: "muted small" }, "Applications you approved with OAuth, such as MCP clients. Each one acts with your account's access until you revoke it."),
    listError,
    listBox,
  );
  const load = async () => {
    try {
      const { grants } = await api(API.oauthGrants, { signal });
      fill(listError);
      fill(listBox,
        grants.length
          ? h(
              "table",
              { class: "data" },
              h("caption", { class: "visually-hidden" }, "Connected apps"),
              h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "App"), h("th", { scope: "col", class: "hide-narrow" }, "Connected"), h("th", { scope: "col", class: "hide-narrow" }, "Last used"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")))),
              h("tbody", {}, grants.map((g) => grantRow(g))),
            )
          : h("p", { class: "empty" }, "No connected apps. An MCP client that signs in with OAuth appears here once you approve it."),
      );
      labelTables(listBox);
    } catch (e) {
      if (missingRoute(e)) return fill(listBox, h("p", { class: "notice" }, "This server does not offer OAuth connections yet."));
      showError(listError, e);
    }
  };
  const grantRow = (g) => {
    const name = g.client?.name || "Unnamed app";
    const revoke = h("button", { type: "button", class: "danger small", "aria-label": `Revoke ${name}` }, "Revoke");
    const rowError = h("span", { class: "cell-error", role: "alert" });
    revoke.addEventListener("click", async () => {
      const ok = await confirmDialog(`Revoke “${name}”?`, "It loses access at once: its tokens get 401 from now on. To use it again, connect it again and approve it.", "Revoke access");
      if (!ok) return revoke.focus();
      try {
        await api(API.oauthGrant(g.id), { method: "DELETE", signal });
        announce(`“${name}” disconnected`);
        await load();
        $("#apps")?.focus();
      } catch (e) {
        if (e?.name !== "AbortError") rowError.textContent = e.message;
      }
    });
    const about = [g.client?.uri, g.resource ? `for ${g.resource}` : null].filter(Boolean).join(" · ");
    return h(
      "tr",
      { "data-grant-id": g.id },
      h("td", { class: "title-cell" }, h("span", { class: "app-name" }, name), about ? h("span", { class: "sub break" }, about) : null),
      h("td", { class: "small nowrap hide-narrow" }, fmtDate(g.createdAt)),
      h("td", { class: "small nowrap hide-narrow" }, g.lastUsedAt ? fmtDate(g.lastUsedAt) : "never"),
      h("td", {}, g.revokedAt ? h("span", { class: "badge failed", title: `Revoked ${fmtDate(g.revokedAt)}` }, "revoked") : h("span", { class: "badge ready" }, "active")),
      h("td", {}, g.revokedAt ? null : revoke, rowError),
    );
  };
  $("h2", section).tabIndex = -1;
  return { section, load };
}

/** Where an MCP client connects: the MCP endpoint as the server's OAuth metadata names it, with copy buttons. */
function mcpConnectSection(signal) {
  const endpoint = (label, hint) => {
    const input = h("input", { type: "text", readonly: true, class: "mono", spellcheck: "false", value: "" });
    input.addEventListener("focus", () => input.select());
    const copy = h("button", { type: "button", class: "secondary", "aria-label": `Copy ${label}` }, "Copy");
    copy.addEventListener("click", () => copyText(input.value, copy, input));
    const wrapped = field(label, input, hint, "endpoint");
    wrapped.insertBefore(h("div", { class: "row" }, input, copy), wrapped.querySelector(".hint"));
    return { el: wrapped, set: (url) => (input.value = url) };
  };
  const account = endpoint("MCP endpoint", "Add it as a remote MCP server (Streamable HTTP). The client signs in with OAuth: you approve it with one of your API keys. A client without OAuth can send an API key as a Bearer token.");
  const paid = endpoint("MCP endpoint for paid brains", "For agents without an account: only paid brains, each question paid with x402.");
  const show = (url) => {
    account.set(url);
    paid.set(`${url}/x402`);
  };
  show(location.origin + API.mcp);
  const section = h(
    "section",
    { class: "card stack", "aria-labelledby": "mcp-connect" },
    h("h2", { id: "mcp-connect" }, "Connect an MCP client"),
    account.el,
    paid.el,
  );
  // Behind a proxy the server's public URL is the one clients must use: its metadata names it.
  const load = async () => {
    try {
      const meta = await api(API.mcpMetadata, { signal, key: null });
      const url = new URL(String(meta?.resource ?? ""));
      if ((url.protocol === "https:" || url.protocol === "http:") && !url.search && !url.hash) show(url.href.replace(/\/$/, ""));
    } catch {
      /* no metadata (an older server, or none configured): the page's own origin stays */
    }
  };
  return { section, load };
}

/** The full key, shown once, with a copy button. */
export function newKeyPanel(key, title) {
  const input = h("input", { type: "text", readonly: true, value: key, "aria-label": "The new API key", class: "mono", spellcheck: "false" });
  input.addEventListener("focus", () => input.select());
  const copy = h("button", { type: "button" }, "Copy");
  copy.addEventListener("click", () => copyText(key, copy, input));
  const dismiss = h("button", { type: "button", class: "secondary" }, "I have stored it");
  const panel = h(
    "div",
    { class: "key-once stack", role: "status" },
    h("h3", {}, title),
    h("p", {}, h("strong", {}, "Copy this key now. "), "It will not be shown again; if you lose it, revoke it and create another."),
    h("div", { class: "row" }, h("div", { class: "field grow" }, input), copy, dismiss),
  );
  dismiss.addEventListener("click", () => panel.remove());
  return panel;
}
