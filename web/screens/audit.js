// The audit log (issue 56): events newest first, as GET /api/v1/audit decides who reads what (a server
// admin everything, a team admin their teams', anyone their own), filtered by action and team, a page at a
// time ("Load more" follows nextCursor).
import { api } from "../lib/api.js";
import { add, field, fill, h, labelCells } from "../lib/dom.js";
import { errorBox, showError } from "../lib/forms.js";

/** The actions the filter offers (src/modules/audit/actions.ts is the list the server checks against). */
const ACTIONS = [
  "session.signed_in", "session.sign_in_failed", "session.signed_out", "session.signed_out_everywhere",
  "password.set", "password.reset_requested",
  "person.created", "person.deactivated", "person.reactivated", "person.role_changed",
  "team.created", "team.member_added", "team.member_role_changed", "team.member_removed", "team.key_policy_changed",
  "invitation.created", "invitation.accepted", "invitation.revoked",
  "share.changed", "share.removed", "key.created", "key.revoked", "token.granted", "token.revoked",
  "connector.created", "connector.changed", "connector.deleted", "webhook.created", "webhook.changed", "webhook.deleted",
  "backup.created", "backup.downloaded", "backup.deleted", "brain.exported", "brain.imported",
];
const PAGE = 50;

const when = (iso) => h("time", { datetime: iso, title: iso }, new Date(iso).toLocaleString());
const who = (e) => (e.actor ? e.actor.label ?? e.actor.id : "—");
const target = (e) => (e.target ? `${e.target.kind} ${e.target.id}` : "—");

/** A short, readable line of an event's details (never more than the server stored). */
function detailsOf(e) {
  if (!e.details || typeof e.details !== "object") return "";
  return Object.entries(e.details)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== "object")
    .map(([k, v]) => `${k}: ${v}`)
    .join(" · ");
}

function eventRow(e) {
  const row = h(
    "tr",
    { "data-action": e.action },
    h("td", {}, when(e.at)),
    h("td", {}, who(e)),
    h("td", {}, h("code", {}, e.action), e.ip ? h("span", { class: "muted small" }, ` from ${e.ip}`) : null),
    h("td", {}, target(e), detailsOf(e) ? h("div", { class: "muted small" }, detailsOf(e)) : null),
  );
  return row;
}

export async function auditScreen(view, signal) {
  const action = h("select", { name: "action" }, h("option", { value: "" }, "Every action"), ...ACTIONS.map((a) => h("option", { value: a }, a)));
  const team = h("select", { name: "team" }, h("option", { value: "" }, "Every team"));
  const body = h("tbody", {});
  const table = h("table", { class: "data audit" }, h("thead", {}, h("tr", {}, h("th", {}, "When"), h("th", {}, "Who"), h("th", {}, "What"), h("th", {}, "Target"))), body);
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Load more");
  const empty = h("p", { class: "empty", hidden: true }, "No events match.");
  const box = errorBox();
  let cursor = null;

  async function load(reset) {
    if (reset) {
      cursor = null;
      fill(body);
    }
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (action.value) query.set("action", action.value);
    if (team.value) query.set("teamId", team.value);
    if (cursor) query.set("cursor", cursor);
    try {
      box.textContent = "";
      const page = await api(`/api/v1/audit?${query}`, { signal });
      for (const e of page.events) body.append(eventRow(e));
      labelCells(table);
      cursor = page.nextCursor;
      more.hidden = !cursor;
      empty.hidden = body.children.length > 0;
    } catch (e) {
      if (e?.name !== "AbortError") showError(box, e);
    }
  }
  action.addEventListener("change", () => load(true));
  team.addEventListener("change", () => load(true));
  more.addEventListener("click", () => load(false));

  add(view, [
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Audit log")),
    h("p", { class: "muted" }, "Who did what, newest first: a server admin sees every event, a team's admins the team's, everyone their own."),
    h("div", { class: "row filters" }, field("Action", action), field("Team", team)),
    box,
    table,
    empty,
    h("div", { class: "actions" }, more),
  ]);
  const teams = await api("/api/v1/teams", { signal }).then((d) => d.teams, () => []);
  for (const t of teams) team.append(h("option", { value: t.id }, t.name ?? t.id));
  await load(true);
}

