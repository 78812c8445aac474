// Sign in: an email and password (the server sets its HttpOnly session cookie), or, the second way, an API
// key (kept in this tab; handed to the server as the same kind of session, for the OAuth consent page).
import { API, ApiError, api, session } from "../lib/api.js";
import { add, announce, field, h } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";
import { ssoButtons } from "./sso-button.js";

/** The page's sign-in: `done()` is called once signed in (the shell draws the route asked for). */
export function signInScreen(view, { reason = "", done }) {
  const email = h("input", { type: "email", name: "email", autocomplete: "username", required: true, spellcheck: "false" });
  const password = h("input", { type: "password", name: "password", autocomplete: "current-password", required: true });
  const box = errorBox();
  if (reason) showError(box, new ApiError(401, "unauthorized", reason));
  const form = h(
    "form",
    { class: "stack", "aria-labelledby": "signin-title" },
    field("Email", email),
    field("Password", password),
    box,
    h("button", { type: "submit" }, "Sign in"),
  );
  onSubmit(form, box, async (fd) => {
    try {
      await api(API.session, { method: "POST", key: null, json: { email: String(fd.get("email") ?? "").trim(), password: String(fd.get("password") ?? "") } });
    } catch (e) {
      if (e instanceof ApiError && e.code === "invalid_credentials") throw new ApiError(401, e.code, "That email and password do not match an account here.", "password");
      throw e;
    }
    session.cookie = true;
    announce("Signed in");
    await done();
  });

  const sso = h("div", { class: "stack" });
  add(view, [
    h(
      "section",
      { class: "card signin stack" },
      h("h1", { id: "signin-title", tabindex: "-1" }, "Sign in to Brainbox"),
      sso,
      form,
      h("p", { class: "muted small" }, "No password yet? The server's operator prints a one-time setup link on the first start, or makes one with ", h("code", {}, "brainbox users reset-link --email EMAIL"), "."),
    ),
    keySection(done),
  ]);
  email.focus();
  // Single sign-on, when the server offers it: drawn when the providers are known, above the password form.
  const returnTo = location.hash ? `/${location.hash}` : undefined;
  ssoButtons({ returnTo }).then((buttons) => {
    if (buttons) sso.append(buttons, h("p", { class: "muted small" }, "or with your email and password:"));
  });
}

/** The second way in: an API key (scripts' credential; the owner's first key is printed on the first start). */
function keySection(done) {
  const input = h("input", { type: "password", name: "key", autocomplete: "off", spellcheck: "false", required: true, placeholder: "bb_live_…" });
  const box = errorBox();
  const form = h(
    "form",
    { class: "stack", "aria-labelledby": "key-title" },
    field("API key", input, "Kept in this browser tab only, and forgotten when the tab closes."),
    box,
    h("button", { type: "submit", class: "secondary" }, "Sign in with this key"),
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
    // The key's sign-in as a server session too, so the OAuth consent page in this browser knows who is here.
    await api(API.webSession, { method: "POST" }).catch(() => {});
    announce("Signed in");
    await done();
  });
  return h(
    "section",
    { class: "card signin stack" },
    h("h2", { id: "key-title" }, "Or sign in with a key"),
    h("p", { class: "muted" }, "The server prints the owner's first key once, on its first start; more keys are created under API keys or with ", h("code", {}, "brainbox keys create --name NAME"), "."),
    form,
  );
}
