// Sharing a brain or brain set (owners): who has which role, share with a person (account id) or a whole
// team at viewer / editor / owner, change a role, stop sharing, invite someone by email (the link is shown
// once). The server keeps the rules (last owner 409, roles 403); this panel says them in plain words.
import { api, enc } from "../lib/api.js";
import { announce, field, fill, h } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";

const ROLES = [
  ["viewer", "Viewer: ask and read"],
  ["editor", "Editor: also add sources and edit pages"],
  ["owner", "Owner: also share, settings, delete"],
];
const roleSelect = (name, current, label) =>
  h("select", { name, "aria-label": label }, ROLES.map(([value, text]) => h("option", { value, selected: value === current }, text)));

/** The share panel for `/api/v1/brains/{id}` or `/api/v1/brain-sets/{id}`; `inviteTo` adds brainId to invitations. */
export function sharePanel({ base, id, name, inviteTo, signal }) {
  const path = `${base}/${enc(id)}/shares`;
  const box = errorBox();
  const list = h("ul", { class: "stack plain", "aria-label": `People and teams with access to ${name}` });
  const granteePath = (g) => `${path}/${g.kind === "team" ? "teams" : "accounts"}/${enc(g.id)}`;

  const load = async () => {
    const { shares } = await api(path, { signal });
    fill(
      list,
      shares.map((s) => {
        const select = roleSelect("role", s.role, `Role of ${s.grantee.name}`);
        select.addEventListener("change", async () => {
          try {
            await api(granteePath(s.grantee), { method: "PUT", json: { role: select.value }, signal });
            announce(`${s.grantee.name} is now ${select.value}`);
            await load();
          } catch (e) {
            showError(box, e);
            select.value = s.role;
          }
        });
        const remove = h("button", { type: "button", class: "secondary small" }, "Remove");
        remove.addEventListener("click", async () => {
          try {
            await api(granteePath(s.grantee), { method: "DELETE", signal });
            announce(`${s.grantee.name} removed`);
            await load();
          } catch (e) {
            showError(box, e);
          }
        });
        const who = s.grantee.kind === "team" ? `Team ${s.grantee.name}` : `${s.grantee.name}${s.grantee.email ? ` (${s.grantee.email})` : ""}`;
        return h("li", { class: "row spread" }, h("span", {}, who), h("span", { class: "actions" }, select, remove));
      }),
    );
  };

  const addForm = h(
    "form",
    { class: "form-grid" },
    field("Share with", h("select", { name: "kind" }, h("option", { value: "account" }, "A person (account id)"), h("option", { value: "team" }, "A team (team id)"))),
    field("Account or team id", h("input", { type: "text", name: "granteeId", required: true, maxlength: "200" })),
    field("Role", roleSelect("role", "viewer")),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Share")),
  );
  onSubmit(addForm, box, async (fd) => {
    const grantee = { kind: String(fd.get("kind")), id: String(fd.get("granteeId")).trim() };
    await api(granteePath(grantee), { method: "PUT", json: { role: fd.get("role") }, signal });
    addForm.reset();
    announce("Shared");
    await load();
  });

  const link = h("p", { class: "success", role: "status", hidden: true });
  const inviteForm = inviteTo
    ? h(
        "form",
        { class: "form-grid" },
        field("Invite by email", h("input", { type: "email", name: "email", required: true, maxlength: "254" })),
        field("Role", roleSelect("brainRole", "viewer")),
        h("div", { class: "actions" }, h("button", { type: "submit" }, "Invite")),
      )
    : null;
  if (inviteForm)
    onSubmit(inviteForm, box, async (fd) => {
      const res = await api("/api/v1/invitations", { method: "POST", json: { email: String(fd.get("email")).trim(), brainId: id, brainRole: fd.get("brainRole") }, signal });
      inviteForm.reset();
      fill(link, res.emailed ? "Invitation mailed. " : "Send this link yourself (shown once): ", h("code", {}, res.url));
      link.hidden = false;
      announce("Invitation created");
    });

  const section = h(
    "section",
    { class: "card stack", "aria-labelledby": `share-${id}` },
    h("h2", { id: `share-${id}` }, "Sharing"),
    h("p", { class: "muted small" }, "Share with a person or a whole team. A brain always keeps an owner."),
    list,
    addForm,
    inviteForm,
    link,
    box,
  );
  load().catch((e) => showError(box, e));
  return section;
}

/** The settings section of a brain: only its owners see it (others could not list the shares). */
export function brainShareSection(brain, signal) {
  if (brain.role && brain.role !== "owner") return null;
  return sharePanel({ base: "/api/v1/brains", id: brain.id, name: brain.name, inviteTo: true, signal });
}
