// Teams and people: the caller's teams with their role; for a team, its members (admins change roles,
// remove members, add people by email and invite by email, the link shown once); "Shared with me".
import { api, enc } from "../lib/api.js";
import { add, announce, field, fill, h } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";

export async function teamsScreen(view, signal) {
  const box = errorBox();
  const list = h("div", { class: "stack" });
  const form = h(
    "form",
    { class: "form-grid" },
    field("Team name", h("input", { type: "text", name: "name", required: true, maxlength: "120" })),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Create team")),
  );
  const load = async () => {
    const { teams } = await api("/api/v1/teams", { signal });
    fill(list, teams.map((t) => teamCard(t, signal)));
  };
  onSubmit(form, box, async (fd) => {
    const { team } = await api("/api/v1/teams", { method: "POST", json: { name: String(fd.get("name")).trim() }, signal });
    form.reset();
    announce(`Team “${team.name}” created`);
    await load();
  });
  add(view, [
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "People & teams")),
    h("section", { class: "card stack", "aria-labelledby": "new-team" }, h("h2", { id: "new-team" }, "Create a team"), form, box),
    list,
  ]);
  await load();
}

function teamCard(team, signal) {
  const box = errorBox();
  const members = h("ul", { class: "stack plain", "aria-label": `Members of ${team.name}` });
  const admin = team.role === "admin";
  const base = `/api/v1/teams/${enc(team.id)}/members`;
  const load = async () => {
    const rows = (await api(base, { signal })).members;
    fill(
      members,
      rows.map((m) => {
        const role = h("select", { "aria-label": `Role of ${m.name}`, disabled: !admin }, ["admin", "member"].map((r) => h("option", { value: r, selected: r === m.role }, r)));
        role.addEventListener("change", async () => {
          try {
            await api(`${base}/${enc(m.accountId)}`, { method: "PATCH", json: { role: role.value }, signal });
            announce(`${m.name} is now ${role.value}`);
          } catch (e) {
            showError(box, e);
            role.value = m.role;
          }
        });
        const remove = h("button", { type: "button", class: "secondary small", hidden: !admin }, "Remove");
        remove.addEventListener("click", async () => {
          try {
            await api(`${base}/${enc(m.accountId)}`, { method: "DELETE", signal });
            await load();
          } catch (e) {
            showError(box, e);
          }
        });
        return h("li", { class: "row spread" }, h("span", {}, `${m.name}${m.email ? ` (${m.email})` : ""}`), h("span", { class: "actions" }, role, remove));
      }),
    );
  };
  const link = h("p", { class: "success", role: "status", hidden: true });
  const invite = h(
    "form",
    { class: "form-grid" },
    field("Invite by email", h("input", { type: "email", name: "email", required: true, maxlength: "254" })),
    field("Role", h("select", { name: "teamRole" }, h("option", { value: "member" }, "member"), h("option", { value: "admin" }, "admin"))),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Invite")),
  );
  onSubmit(invite, box, async (fd) => {
    const email = String(fd.get("email")).trim();
    const res = await api("/api/v1/invitations", { method: "POST", json: { email, teamId: team.id, teamRole: fd.get("teamRole") }, signal });
    invite.reset();
    fill(link, res.emailed ? "Invitation mailed. " : "Send this link yourself (shown once): ", h("code", {}, res.url));
    link.hidden = false;
    announce(`Invitation for ${email} created`);
  });
  load().catch((e) => showError(box, e));
  return h(
    "article",
    { class: "card stack", "aria-label": `Team ${team.name}` },
    h("h2", {}, team.name, team.personal ? h("span", { class: "muted small" }, " (your own)") : null),
    h("p", { class: "muted small" }, `Your role: ${team.role}. Team id: `, h("code", {}, team.id)),
    members,
    admin ? invite : null,
    link,
    box,
  );
}

/** Brains and sets others shared with the caller, with the caller's role. */
export async function sharedScreen(view, signal) {
  const { brains, brainSets } = await api("/api/v1/shared-with-me", { signal });
  add(view, [
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Shared with me")),
    brains.length || brainSets.length
      ? h(
          "ul",
          { class: "stack plain", "aria-label": "Shared with me" },
          brains.map((b) => h("li", {}, h("a", { href: `#/brains/${enc(b.id)}` }, `${b.emoji ?? ""} ${b.name}`), h("span", { class: "muted small" }, ` — ${b.role}`))),
          brainSets.map((s) => h("li", {}, h("a", { href: "#/sets" }, `Set: ${s.name}`), h("span", { class: "muted small" }, ` — ${s.role}`))),
        )
      : h("p", { class: "empty" }, "Nothing is shared with you yet."),
  ]);
}

