// The shell: top navigation, hash routes, sign-in and the account in the header.
import { API, ApiError, api, session, whenUnauthorized } from "./lib/api.js";
import { $, add, announce, field, fill, h } from "./lib/dom.js";
import { errorBox, onSubmit, showError } from "./lib/forms.js";
import { safeDecode } from "./lib/format.js";
import { currentPath, nextScreen, rerender, setRender, state } from "./lib/router.js";
import { accountScreen } from "./screens/account.js";
import { brainScreen } from "./screens/brain.js";
import { brainsScreen } from "./screens/brains.js";
import { keysScreen } from "./screens/keys.js";
import { setsScreen } from "./screens/sets.js";
import { invitationScreen, sharedScreen, teamsScreen } from "./screens/team.js";

/** Top-level screens in the header. */
const NAV = [
  { href: "#/", label: "Brains", active: (p) => p === "/" || p.startsWith("/brains") },
  { href: "#/sets", label: "Brain sets", active: (p) => p.startsWith("/sets") },
  { href: "#/shared", label: "Shared with me", active: (p) => p.startsWith("/shared") },
  { href: "#/teams", label: "People & teams", active: (p) => p.startsWith("/teams") },
  { href: "#/keys", label: "API keys", active: (p) => p.startsWith("/keys") },
  { href: "#/account", label: "Plan & usage", active: (p) => p.startsWith("/account") },
];

/** Hash routes: pattern → screen. Parameters are URI-decoded. */
const ROUTES = [
  [/^\/$/, (v, _p, s) => brainsScreen(v, s)],
  [/^\/brains\/([^/]+)\/?(?:([a-z-]+)(?:\/(.+))?)?$/, (v, [id, tab, rest], s) => brainScreen(v, id, tab ?? "sources", rest, s)],
  [/^\/sets\/?$/, (v, _p, s) => setsScreen(v, s)],
  [/^\/keys\/?$/, (v, _p, s) => keysScreen(v, s)],
  [/^\/teams\/?$/, (v, _p, s) => teamsScreen(v, s)],
  [/^\/shared\/?$/, (v, _p, s) => sharedScreen(v, s)],
  [/^\/invitation\/([^/]+)$/, (v, [token], s) => invitationScreen(v, token, s)],
  [/^\/account\/?$/, (v, _p, s) => accountScreen(v, s)],
];

let signInReason = "";
let renderSeq = 0;

async function render() {
  const seq = ++renderSeq;
  const signal = nextScreen();
  const main = $("#main");
  const view = h("div", { class: "view" });

  if (!session.key) {
    setChrome(false);
    fill(main, view);
    signInScreen(view);
    return;
  }
  if (!session.account) {
    try {
      await loadAccount(signal);
    } catch (e) {
      if (seq !== renderSeq || e?.name === "AbortError") return;
      if (!session.key) return; // a 401 already scheduled the sign-in screen
      setChrome(false);
      fill(main, view);
      const box = errorBox();
      showError(box, e);
      const other = () => {
        session.signOut();
        render();
      };
      add(view, [
        h("h1", { tabindex: "-1" }, "Cannot load your account"),
        box,
        h("div", { class: "actions" }, h("button", { type: "button", onclick: () => render() }, "Retry"), h("button", { type: "button", class: "secondary", onclick: other }, "Use another key")),
      ]);
      return;
    }
    if (seq !== renderSeq) return;
  }
  setChrome(true);
  const path = currentPath();
  for (const a of $("#nav").querySelectorAll("a")) {
    const item = NAV.find((n) => n.href === a.getAttribute("href"));
    if (item?.active(path)) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  fill(main, view);
  const route = ROUTES.find(([re]) => re.test(path));
  if (!route) {
    add(view, [h("h1", { tabindex: "-1" }, "Not found"), h("p", {}, "There is no such screen. "), h("a", { href: "#/" }, "Back to brains")]);
  } else {
    const params = path.match(route[0]).slice(1).map((p) => (p === undefined ? undefined : safeDecode(p)));
    try {
      await route[1](view, params, signal);
    } catch (e) {
      if (e?.name === "AbortError" || seq !== renderSeq) return;
      const box = errorBox();
      showError(box, e);
      // Never a bare red box: a heading and a way back.
      if (!view.querySelector("h1")) view.prepend(h("h1", { tabindex: "-1" }, "Something went wrong"));
      add(view, [box, h("p", {}, h("a", { href: "#/" }, "Back to brains"))]);
    }
  }
  if (seq === renderSeq && state.focusOnRender) {
    state.focusOnRender = false;
    ($("h1", view) ?? main).focus({ preventScroll: false });
  }
}

async function loadAccount(signal) {
  const data = await api(API.account, { signal });
  session.account = data.account ?? data;
  session.usage = data.usage ?? null;
}

function setChrome(signedIn) {
  $("#nav").hidden = !signedIn;
  $("#session").hidden = !signedIn;
  if (signedIn && session.account) {
    const a = session.account;
    $("#who").textContent = `${a.name ?? "Account"}${a.plan ? ` · ${a.plan}` : ""}`;
  }
}

/**
 * Hands the signed-in key to the server as an HttpOnly cookie, so the OAuth consent page in this browser needs
 * no pasted key. An older server without the route (404) is fine: consent then asks for the key.
 */
async function webSession(method) {
  try {
    await api(API.webSession, { method });
  } catch {
    /* 404 on older servers, or offline: nothing depends on it */
  }
}

function signInScreen(view) {
  const input = h("input", { type: "password", name: "key", autocomplete: "off", spellcheck: "false", required: true, placeholder: "bb_live_…" });
  const box = errorBox();
  if (signInReason) showError(box, new ApiError(401, "unauthorized", signInReason));
  signInReason = "";
  const form = h(
    "form",
    { class: "stack", "aria-labelledby": "signin-title" },
    field("API key", input, "Kept in this browser tab only, and forgotten when the tab closes."),
    box,
    h("button", { type: "submit" }, "Sign in"),
  );
  onSubmit(form, box, async (fd) => {
    const key = String(fd.get("key") ?? "").trim();
    if (!key) throw new ApiError(0, "invalid_request", "Paste an API key first.", "key");
    let data;
    try {
      data = await api(API.account, { key });
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) throw new ApiError(401, "unauthorized", "That key was not accepted: it is unknown or was revoked.", "key");
      throw e;
    }
    session.signIn(key);
    session.account = data.account ?? data;
    session.usage = data.usage ?? null;
    await webSession("POST");
    announce("Signed in");
    rerender(true);
  });
  add(view, [
    h(
      "section",
      { class: "card signin stack" },
      h("h1", { id: "signin-title", tabindex: "-1" }, "Sign in to Brainbox"),
      h(
        "p",
        { class: "muted" },
        "Use an API key. The server prints the owner's first key once, on its first start; more keys are created under API keys or with ",
        h("code", {}, "brainbox keys create --name NAME"),
        ".",
      ),
      form,
    ),
  ]);
  input.focus();
}

export function start() {
  setRender(render);
  whenUnauthorized(() => {
    // The key was revoked (or the data dir was reset): back to the sign-in screen with a reason.
    signInReason = "Your API key is no longer accepted (it was revoked or is unknown). Sign in with another key.";
    queueMicrotask(render);
  });
  fill($("#nav"), ...NAV.map((n) => h("a", { href: n.href }, n.label)));
  $("#sign-out").addEventListener("click", async () => {
    await webSession("DELETE");
    session.signOut();
    announce("Signed out");
    history.replaceState(null, "", "#/");
    render();
  });
  $("#skip-link").addEventListener("click", (e) => {
    e.preventDefault();
    ($("h1", $("#main")) ?? $("#main")).focus();
  });
  window.addEventListener("hashchange", () => {
    if (!location.hash.startsWith("#/") && location.hash !== "") return;
    state.focusOnRender = true;
    render();
  });
  render();
}
