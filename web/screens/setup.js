// The one-time setup link (`/setup?token=…`, printed on the first start) and password reset links: the
// person chooses an email (setup) and a password, and is signed in.
import { API, ApiError, api, session } from "../lib/api.js";
import { add, announce, field, h } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";

export async function setupScreen(view, { done }) {
  const token = new URLSearchParams(location.search).get("token") ?? "";
  let link;
  try {
    link = await api(API.linkCheck, { method: "POST", key: null, json: { token } });
  } catch (e) {
    const box = errorBox();
    showError(box, e);
    add(view, [
      h(
        "section",
        { class: "card signin stack" },
        h("h1", { tabindex: "-1" }, "This link cannot be used"),
        box,
        h("p", {}, "Ask the server's operator or an admin for a new link. ", h("a", { href: "/" }, "Go to sign in")),
      ),
    ]);
    return;
  }
  const setup = link.purpose === "setup";
  const email = h("input", { type: "email", name: "email", autocomplete: "username", required: setup, value: link.person.email ?? "", readonly: !setup && Boolean(link.person.email) });
  const password = h("input", { type: "password", name: "password", autocomplete: "new-password", required: true, minlength: "10" });
  const again = h("input", { type: "password", name: "again", autocomplete: "new-password", required: true });
  const box = errorBox();
  const form = h(
    "form",
    { class: "stack", "aria-labelledby": "setup-title" },
    field("Email", email, setup ? "You sign in with this address." : undefined),
    field("New password", password, "At least 10 characters."),
    field("Repeat the password", again),
    box,
    h("button", { type: "submit" }, setup ? "Save and sign in" : "Set password and sign in"),
  );
  onSubmit(form, box, async (fd) => {
    if (fd.get("password") !== fd.get("again")) throw new ApiError(0, "invalid_request", "The two passwords differ.", "again");
    const json = { token, password: String(fd.get("password")), ...(setup ? { email: String(fd.get("email") ?? "").trim() } : {}) };
    await api(API.linkRedeem, { method: "POST", key: null, json });
    session.signOut();
    session.cookie = true;
    announce("Password saved; signed in");
    history.replaceState(null, "", "/#/");
    await done();
  });
  add(view, [
    h(
      "section",
      { class: "card signin stack" },
      h("h1", { id: "setup-title", tabindex: "-1" }, setup ? "Set up your sign-in" : "Choose a new password"),
      h("p", { class: "muted" }, `For ${link.person.name}${link.person.email ? ` (${link.person.email})` : ""}. This link works once, until ${new Date(link.expiresAt).toLocaleString()}.`),
      form,
    ),
  ]);
  (setup && !link.person.email ? email : password).focus();
}
