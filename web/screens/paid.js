// Paid access (x402) in plain words: what charging means, that it makes the brain public (sent explicitly as
// `visibility: "public"`), and, on a server that cannot take payments, why the form is off and what to set.
import { API, ApiError, api } from "../lib/api.js";
import { announce, field, fill, h } from "../lib/dom.js";
import { errorBox, onSubmit, showError } from "../lib/forms.js";
import { fromAtomic, toAtomic } from "../lib/format.js";
import { rerender } from "../lib/router.js";

const FACILITATOR_VAR = "BRAINBOX_X402_FACILITATOR_URL";

/**
 * Whether this server can take payments. Its public bazaar lists paid endpoints only when it can; an empty
 * bazaar (no paid brain yet) is settled by an empty PUT of terms, which changes nothing: refused as 409 (no
 * facilitator) before the terms are read, or as 422 (the empty terms) when a facilitator is configured.
 */
async function canTakePayments(brain, signal) {
  try {
    const bazaar = await api(API.bazaar, { signal, key: null });
    if (typeof bazaar?.facilitator === "boolean") return bazaar.facilitator;
    if ((bazaar?.items?.length ?? 0) > 0) return true;
  } catch (e) {
    if (e?.name === "AbortError") throw e;
  }
  try {
    await api(API.paid(brain.id), { method: "PUT", json: { priceAtomic: "", payTo: "" }, signal });
    return true; // not expected: empty terms are never accepted
  } catch (e) {
    if (e?.name === "AbortError") throw e;
    return !(e instanceof ApiError && e.status === 409 && /facilitator/i.test(e.message));
  }
}

const noFacilitator = () =>
  h(
    "div",
    { class: "notice warn", role: "status" },
    h("strong", {}, "This server cannot take payments yet. "),
    "Payments are checked and settled by an x402 facilitator, and none is configured. The server's administrator sets ",
    h("code", {}, FACILITATOR_VAR),
    " (for example ",
    h("code", { class: "break" }, `${FACILITATOR_VAR}=https://example.com/x402-facilitator`),
    ") and restarts Brainbox; then a price can be set here.",
  );

/** Paid access: price per question and the receiving address. */
export async function brainPaidSection(brain, signal) {
  if (!("paid" in brain)) return null; // this server has no paid rail at all
  const configured = brain.paid ? true : await canTakePayments(brain, signal);
  const box = errorBox();
  const state = h("div", { role: "status" });
  const price = h("input", { type: "text", name: "priceAtomic", inputmode: "decimal", required: true, autocomplete: "off", placeholder: "0.01", value: brain.paid ? fromAtomic(brain.paid.priceAtomic) : "" });
  const payTo = h("input", { type: "text", name: "payTo", required: true, autocomplete: "off", spellcheck: "false", class: "mono", placeholder: "0x…", value: brain.paid?.payTo ?? "" });
  const makePublic = h("input", { type: "checkbox", name: "visibility", value: "public", required: true, checked: brain.visibility === "public" && Boolean(brain.paid) });
  const stop = h("button", { type: "button", class: "secondary", hidden: !brain.paid }, "Stop charging");
  const submit = h("button", { type: "submit" }, brain.paid ? "Update price" : "Charge for this brain");
  const fields = h(
    "fieldset",
    { class: "form-grid wide", disabled: !configured },
    h("legend", { class: "visually-hidden" }, "Paid access"),
    field("Price per question (USDC)", price, "In US dollars (USDC on the Base network), paid for each answered question"),
    field("Pay to", payTo, "The wallet address that receives the payments", "wide"),
    h(
      "label",
      { class: "check wide" },
      makePublic,
      h("span", {}, "Make this brain public. ", h("span", { class: "hint" }, "Required: a paid brain is listed publicly so that anyone, including programs without an account, can find it and pay per question.")),
    ),
    h("div", { class: "actions wide" }, submit, stop),
  );
  const form = h("form", { class: "form-grid" }, fields, h("div", { class: "wide" }, box));
  const show = () => {
    fill(
      state,
      brain.paid
        ? h("p", {}, h("span", { class: "badge public" }, "paid"), ` Anonymous agents pay ${fromAtomic(brain.paid.priceAtomic)} USDC per question at `, h("code", { class: "break" }, `/api/x402/${brain.id}/ask`), ". A question the brain cannot answer is never charged.")
        : h(
            "p",
            {},
            "Not charging. When you set a price, people and programs without an account can ask this brain and pay for each answer with x402 (a standard for paying over HTTP). The brain becomes public: it is listed for everyone. Questions it cannot answer are never charged.",
          ),
      configured ? null : noFacilitator(),
    );
    stop.hidden = !brain.paid;
    submit.textContent = brain.paid ? "Update price" : "Charge for this brain";
  };
  onSubmit(form, box, async (fd) => {
    const atomic = toAtomic(fd.get("priceAtomic"));
    if (!atomic) throw new ApiError(0, "invalid_request", "Enter a price above zero, with at most 6 decimals (e.g. 0.01).", "priceAtomic");
    if (!makePublic.checked) throw new ApiError(0, "invalid_request", "A paid brain must be public: tick “Make this brain public”.", "visibility");
    let res;
    try {
      res = await api(API.paid(brain.id), { method: "PUT", json: { priceAtomic: atomic, payTo: String(fd.get("payTo")).trim(), visibility: "public" }, signal });
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && /facilitator/i.test(e.message)) {
        fields.disabled = true;
        fill(state, noFacilitator());
        throw new ApiError(409, e.code, `This server cannot take payments: set ${FACILITATOR_VAR} first.`);
      }
      throw e;
    }
    Object.assign(brain, res.brain);
    show();
    announce("Paid access saved");
    rerender(); // the header shows the brain public now
  });
  stop.addEventListener("click", async () => {
    fill(box);
    try {
      const res = await api(API.paid(brain.id), { method: "DELETE", signal });
      Object.assign(brain, res.brain);
      show();
      announce("No longer charging for this brain");
      rerender();
    } catch (e) {
      showError(box, e);
    }
  });
  show();
  return h("section", { class: "card stack", "aria-labelledby": "paid" }, h("h2", { id: "paid" }, "Charge per question"), state, form);
}
