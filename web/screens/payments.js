// The owner's payments (x402): every paid question or action on their brains, settled or not, and totals per
// period. A server without the payments route (404) simply shows nothing.
import { API, ApiError, api, enc } from "../lib/api.js";
import { h, labelCells } from "../lib/dom.js";
import { errorBox, showError } from "../lib/forms.js";
import { fmtDate, fromAtomic } from "../lib/format.js";

const STATUS_WORDS = {
  settled: ["Paid", "ready"],
  refused: ["Refused", "failed"],
  zero: ["Not charged: no answer", ""],
  unknown: ["Unknown: check the transaction", "pending"],
};
const usdc = (atomic) => (atomic === undefined || atomic === null ? "—" : `${fromAtomic(String(atomic)) || "0"} USDC`);
const short = (s) => (s && s.length > 14 ? `${s.slice(0, 8)}…${s.slice(-4)}` : (s ?? "—"));

export async function paymentsSection(signal) {
  let first;
  try {
    first = await api(`${API.payments}?limit=50`, { signal });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null; // an older server: no payments route
    if (e?.name === "AbortError") throw e;
    const box = errorBox();
    showError(box, e);
    return h("section", { class: "card stack", "aria-labelledby": "payments" }, h("h2", { id: "payments" }, "Payments"), box);
  }
  // Payments name brains by id: show their names (the owner's brains; others stay "a brain").
  const names = new Map(((await api(API.brains, { signal }).catch(() => null))?.brains ?? []).map((b) => [b.id, `${b.emoji ? `${b.emoji} ` : ""}${b.name}`]));
  const body = h("tbody");
  const table = h(
    "table",
    { class: "data" },
    h("caption", { class: "visually-hidden" }, "Payments"),
    h("thead", {}, h("tr", {}, ["When", "For", "Status", "Amount", "Payer", "Transaction"].map((t) => h("th", { scope: "col", class: t === "Amount" ? "num" : null }, t)))),
    body,
  );
  const more = h("button", { type: "button", class: "secondary small", hidden: true }, "Show older payments");
  const box = errorBox();
  let cursor = null;
  const addRows = (payments) => {
    for (const p of payments) {
      const [words, badge] = STATUS_WORDS[p.status] ?? [p.status, ""];
      body.append(
        h(
          "tr",
          { "data-payment-id": p.id },
          h("td", { class: "small nowrap" }, fmtDate(p.createdAt)),
          h("td", {}, p.brainId ? h("a", { href: `#/brains/${enc(p.brainId)}` }, names.get(p.brainId) ?? "a brain") : (p.action ?? "—"), p.brainId && p.action ? h("span", { class: "sub" }, p.action) : null),
          h("td", {}, h("span", { class: `badge ${badge}` }, words)),
          // Only a settled payment moved money; the others show what was quoted.
          h("td", { class: "num nowrap" }, p.status === "settled" ? usdc(p.amount) : h("span", { class: "muted" }, `${usdc(p.amount)} quoted`)),
          h("td", { class: "mono small", title: p.payer ?? "" }, short(p.payer)),
          h("td", { class: "mono small", title: p.txHash ?? "" }, short(p.txHash), p.network ? h("span", { class: "muted" }, ` · ${p.network}`) : null),
        ),
      );
    }
    labelCells(table);
  };
  const page = (data) => {
    addRows(data.payments ?? []);
    cursor = data.nextCursor ?? null;
    more.hidden = !cursor;
  };
  more.addEventListener("click", async () => {
    try {
      page(await api(`${API.payments}?limit=50&cursor=${enc(cursor)}`, { signal }));
    } catch (e) {
      showError(box, e);
    }
  });
  page(first);
  const totals = first.totals ?? [];
  const totalsTable = totals.length
    ? labelCells(
        h(
          "table",
          { class: "data totals" },
          h("caption", {}, "Totals"),
          h("thead", {}, h("tr", {}, ["Period", "Paid", "Received", "Not charged", "Refused", "Unknown"].map((t) => h("th", { scope: "col" }, t)))),
          h(
            "tbody",
            {},
            totals.map((t) => h("tr", {}, h("td", {}, t.period), h("td", {}, String(t.settledCount ?? 0)), h("td", { class: "nowrap" }, usdc(t.settledAmount)), h("td", {}, String(t.zeroCount ?? 0)), h("td", {}, String(t.refusedCount ?? 0)), h("td", {}, String(t.unknownCount ?? 0)))),
          ),
        ),
      )
    : null;
  const empty = !(first.payments ?? []).length;
  return h(
    "section",
    { class: "card stack", "aria-labelledby": "payments" },
    h("h2", { id: "payments" }, "Payments"),
    h("p", { class: "muted small" }, "What people and programs paid to ask your paid brains. “Not charged” means the brain could not answer, so nothing was taken; “Unknown” means the payment network did not confirm in time: check the transaction."),
    totalsTable,
    empty ? h("p", { class: "empty" }, "No payments yet.") : h("div", { class: "table-wrap" }, table),
    more,
    box,
  );
}
