// The shell: top navigation, hash routes, sign-in and the account in the header.
import { API, api, session, whenUnauthorized } from "./lib/api.js";
import { $, add, announce, fill, h } from "./lib/dom.js";
import { errorBox, showError } from "./lib/forms.js";
import { safeDecode } from "./lib/format.js";
import { currentPath, nextScreen, rerender, setRender, state } from "./lib/router.js";
import { accountScreen } from "./screens/account.js";
import { brainScreen } from "./screens/brain.js";
import { brainsScreen } from "./screens/brains.js";
import { keysScreen } from "./screens/keys.js";
import { setsScreen } from "./screens/sets.js";
import { setupScreen } from "./screens/setup.js";
import { signInScreen } from "./screens/sign-in.js";
import { auditScreen } from "./screens/audit.js";
import { backupsScreen } from "./screens/backups.js";
import { invitationScreen, signedOutInvitationScreen } from "./screens/invitation.js";
import { sharedScreen, teamsScreen } from "./screens/team.js";

/** Top-level screens in the header; `admin: true` ones show only to the server's admin. */
const NAV = [
  { href: "#/", label: "Brains", active: (p) => p === "/" || p.startsWith("/brains") },
  { href: "#/sets", label: "Brain sets", active: (p) => p.startsWith("/sets") },
  { href: "#/shared", label: "Shared with me", active: (p) => p.startsWith("/shared") },
  { href: "#/teams", label: "People & teams", active: (p) => p.startsWith("/teams") },
  { href: "#/audit", label: "Audit log", active: (p) => p.startsWith("/audit") },
  { href: "#/backups", label: "Backups", active: (p) => p.startsWith("/backups"), admin: true },
  { href: "#/keys", label: "API keys", active: (p) => p.startsWith("/keys") },
  { href: "#/account", label: "Plan & usage", active: (p) => p.startsWith("/account") },
];

const INVITATION_ROUTE = /^\/invitation\/([^/]+)$/;

/** Hash routes: pattern → screen. Parameters are URI-decoded. */
const ROUTES = [
  [/^\/$/, (v, _p, s) => brainsScreen(v, s)],
  [/^\/brains\/([^/]+)\/?(?:([a-z-]+)(?:\/(.+))?)?$/, (v, [id, tab, rest], s) => brainScreen(v, id, tab ?? "sources", rest, s)],
  [/^\/sets\/?$/, (v, _p, s) => setsScreen(v, s)],
  [/^\/keys\/?$/, (v, _p, s) => keysScreen(v, s)],
  [/^\/teams\/?$/, (v, _p, s) => teamsScreen(v, s)],
  [/^\/shared\/?$/, (v, _p, s) => sharedScreen(v, s)],
  [INVITATION_ROUTE, (v, [token], s) => invitationScreen(v, token, s)],
  [/^\/audit\/?$/, (v, _p, s) => auditScreen(v, s)],
  [/^\/backups\/?$/, (v, _p, s) => backupsScreen(v, s)],
  [/^\/account\/?$/, (v, _p, s) => accountScreen(v, s)],
];

let signInReason = "";
let renderSeq = 0;

async function render() {
  const seq = ++renderSeq;
  const signal = nextScreen();
  const main = $("#main");
  const view = h("div", { class: "view" });

  if (location.pathname === "/setup") {
    setChrome(false);
    fill(main, view);
    await setupScreen(view, { done: () => rerender(true) });
    return;
  }
  if (!session.signedIn) await probeCookie(signal);
  if (seq !== renderSeq) return;
  const invited = !session.signedIn && currentPath().match(INVITATION_ROUTE);
  if (invited) {
    // An invitation link works signed out: it shows what it invites to, then the way in that fits.
    setChrome(false);
    fill(main, view);
    await signedOutInvitationScreen(view, safeDecode(invited[1]), { signal, done: () => rerender(true) }).catch((e) => {
      if (e?.name === "AbortError" || seq !== renderSeq) return;
      const box = errorBox();
      showError(box, e);
      add(view, [box, h("p", {}, h("a", { href: "#/" }, "Sign in"))]);
    });
    return;
  }
  if (!session.signedIn) {
    setChrome(false);
    fill(main, view);
    signInScreen(view, { reason: signInReason, done: () => rerender(true) });
    signInReason = "";
    return;
  }
  if (!session.account) {
    try {
      await loadAccount(signal);
    } catch (e) {
      if (seq !== renderSeq || e?.name === "AbortError") return;
      if (!session.signedIn) return; // a 401 already scheduled the sign-in screen
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
    for (const link of $("#nav").querySelectorAll("a[data-admin]")) link.hidden = !a.isAdmin;
    $("#who").textContent = `${a.name ?? "Account"}${a.plan ? ` · ${a.plan}` : ""}`;
  }
}

/** Ends the key's server-side session (the cookie the OAuth consent page reads); older servers: nothing to end. */
async function webSession(method) {
  try {
    await api(API.webSession, { method });
  } catch {
    /* 404 on older servers, or offline: nothing depends on it */
  }
}

/** Once per page load: is this browser signed in by the server's session cookie (a password sign-in)? */
let cookieProbed = false;
async function probeCookie(signal) {
  if (cookieProbed) return;
  cookieProbed = true;
  try {
    const who = await api(API.session, { key: null, signal });
    // A session a pasted key opened (for the consent page) does not sign the page in: a key is this tab's only.
    session.cookie = who?.session?.method !== "api_key";
  } catch {
    /* 401: not signed in */
  }
}

export function start() {
  setRender(render);
  whenUnauthorized((how) => {
    // The key was revoked or the session ended: back to the sign-in screen with a reason.
    signInReason =
      how === "key"
        ? "Your API key is no longer accepted (it was revoked or is unknown). Sign in with another key."
        : "Your session has ended (you signed out everywhere, it expired, or your account was deactivated). Sign in again.";
    queueMicrotask(render);
  });
  fill($("#nav"), ...NAV.map((n) => h("a", { href: n.href, "data-admin": n.admin, hidden: n.admin }, n.label)));
  $("#sign-out").addEventListener("click", async () => {
    if (session.key) await webSession("DELETE");
    else await api(API.session, { method: "DELETE", key: null }).catch(() => {});
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
