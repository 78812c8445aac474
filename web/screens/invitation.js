// The invitation link (#/invitation/<token>): what it invites to, read by the token before anyone signs in.
// Signed out: "Create your account" when the invited email has none (the server makes the person, accepts the
// invitation and signs this browser in), or "Sign in to accept" otherwise. Signed in: the Accept button.
import { api, enc, session } from "../lib/api.js";
import { add, announce, field, fill, h } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";
import { fmtDate } from "../lib/format.js";
import { signInScreen } from "./sign-in.js";

const STATUS_TEXT = {
  accepted: "This invitation has been accepted (each link works once).",
  revoked: "This invitation was withdrawn: ask for a new one.",
  expired: "This invitation has expired: ask for a new one.",
};

/** The invitation's details, keyless (the token is the credential); null when the link is unknown. */
const checked = (token, signal) => api("/api/v1/invitations/check", { method: "POST", key: null, json: { token }, signal });

function summary(inv) {
  const what = [
    inv.brain && `the brain “${inv.brain.name ?? inv.brain.id}” as ${inv.brain.role}`,
    inv.team && `the team “${inv.team.name ?? inv.team.id}” as ${inv.team.role}`,
  ].filter(Boolean);
  return h(
    "div",
    { class: "card stack invitation-summary" },
    h("p", {}, `${inv.invitedBy?.name ?? "Someone"} invited `, h("strong", {}, inv.email), ` to ${what.join(" and ")}.`),
    inv.status === "pending" ? h("p", { class: "muted small" }, `The link works once, until ${fmtDate(inv.expiresAt)}.`) : h("p", { class: "error", role: "alert" }, STATUS_TEXT[inv.status]),
  );
}

/** Signed out: show the invitation, then the way in that fits the invited email. */
export async function signedOutInvitationScreen(view, token, { signal, done }) {
  add(view, [h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Invitation"))]);
  const { invitation, accountExists } = await checked(token, signal);
  add(view, [summary(invitation)]);
  if (invitation.status !== "pending") return;
  if (accountExists) {
    const place = h("div", {});
    const go = h("button", { type: "button" }, "Sign in to accept");
    go.addEventListener("click", () => {
      go.hidden = true;
      signInScreen(place, { done });
    });
    add(view, [h("p", {}, "This email already has an account here: sign in with it, then accept."), go, place]);
    return;
  }
  add(view, [createAccountForm(token, invitation.email, done)]);
}

function createAccountForm(token, email, done) {
  const name = h("input", { type: "text", name: "name", autocomplete: "name", required: true, maxlength: "120" });
  const password = h("input", { type: "password", name: "password", autocomplete: "new-password", required: true, minlength: "10" });
  const login = h("input", { type: "email", name: "email", autocomplete: "username", value: email, readonly: true });
  const box = errorBox();
  const form = h(
    "form",
    { class: "card stack", "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, "Create your account"),
    field("Email", login, "The invited email: you sign in with it."),
    field("Your name", name),
    field("Password", password, "At least 10 characters."),
    box,
    h("button", { type: "submit" }, "Create your account"),
  );
  onSubmit(form, box, async (fd) => {
    await api("/api/v1/invitations/sign-up", { method: "POST", key: null, json: { token, name: String(fd.get("name") ?? "").trim(), password: String(fd.get("password") ?? "") } });
    session.cookie = true;
    announce("Account created, invitation accepted");
    // The shell draws the route again signed in: the invitation screen then says it is accepted.
    await done();
  });
  return form;
}

/** Signed in: the invitation's details and the Accept button (the account's email must be the invited one). */
export async function invitationScreen(view, token, signal) {
  const box = errorBox();
  const done = h("p", { class: "success", role: "status", hidden: true });
  const accept = h("button", { type: "button" }, "Accept invitation");
  const showAccepted = (invitation) => {
    fill(
      done,
      "Accepted. ",
      invitation.brain ? h("a", { href: `#/brains/${enc(invitation.brain.id)}` }, `Open the brain (${invitation.brain.role})`) : null,
      invitation.brain && invitation.team ? " · " : null,
      invitation.team ? h("a", { href: "#/teams" }, `See your teams (${invitation.team.role})`) : null,
    );
    done.hidden = false;
  };
  accept.addEventListener("click", async () => {
    try {
      const { invitation } = await api("/api/v1/invitations/accept", { method: "POST", json: { token }, signal });
      showAccepted(invitation);
      announce("Invitation accepted");
    } catch (e) {
      showError(box, e);
    }
  });
  add(view, [h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Invitation"))]);
  const details = await checked(token, signal).catch(() => null);
  const mine = details && session.account?.email === details.invitation.email;
  if (details) add(view, [summary(details.invitation)]);
  else add(view, [h("p", {}, "Someone invited you to a team or a brain. Accept it with this account (its email must be the invited one).")]);
  // Accepted by this very person (just now, at sign-up): say so and link on.
  if (details?.invitation.status === "accepted" && mine) showAccepted({ brain: details.invitation.brain, team: details.invitation.team });
  add(view, [h("div", { class: "actions" }, accept), done, box]);
}
