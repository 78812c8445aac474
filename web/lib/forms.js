// Errors in plain words and form wiring. An error box says what went wrong and what to do; the API's code
// and status stay out of sight (in data attributes, for support and tests), never as protocol jargon.
import { ApiError, missingRoute } from "./api.js";
import { add, fill, h } from "./dom.js";

/** Server messages that deserve plainer words or the one setting that fixes them. */
export function plainMessage(e) {
  if (missingRoute(e)) return "This server does not offer this feature yet.";
  // A link to a private, loopback or metadata address: say which setting lets the administrator allow it.
  if (e.field === "url" && BLOCKED.test(e.message) && !e.message.includes(ALLOW_VAR))
    return `${e.message}. If this host is meant to be reachable, the server's administrator can allow it with ${ALLOW_VAR} (for example ${ALLOW_VAR}=intranet.example:8080) and restart Brainbox.`;
  return e.message;
}
const ALLOW_VAR = "BRAINBOX_FETCH_ALLOW_HOSTS";
const BLOCKED = /does not fetch|refusing to fetch|private|loopback|link-local|metadata/i;

/** A failed source's reason in plain words; a refused private address names the setting that allows it. */
export function plainSourceError(text) {
  if (!text) return "";
  if (BLOCKED.test(text) && !text.includes(ALLOW_VAR))
    return `${text}. The server's administrator can allow the host with ${ALLOW_VAR} (for example ${ALLOW_VAR}=intranet.example:8080).`;
  return text;
}

/** A readable error box for an API failure; marks the offending field when the API names it. */
export function showError(box, err, form) {
  if (err?.name === "AbortError") return;
  fill(box);
  box.removeAttribute("data-code");
  box.removeAttribute("data-status");
  if (!err) return;
  const e = err instanceof ApiError ? err : new ApiError(0, "client_error", err.message ?? String(err));
  add(box, [h("strong", {}, plainMessage(e))]);
  box.dataset.code = e.code;
  if (e.status) box.dataset.status = String(e.status);
  box.setAttribute("role", "alert");
  if (form && e.field) {
    const name = String(e.field).split(".")[0];
    const input = form.querySelector(`[name="${CSS.escape(name)}"]`);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.addEventListener("input", () => input.removeAttribute("aria-invalid"), { once: true });
      input.focus();
    }
  }
}
export const errorBox = () => h("div", { class: "error", "aria-live": "assertive" });

/** Wires a form: disables its submit button while `action` runs and shows any error in `box`. */
export function onSubmit(form, box, action) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const submit = form.querySelector('button[type="submit"]');
    fill(box);
    form.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    if (submit) submit.disabled = true;
    try {
      await action(new FormData(form));
    } catch (e) {
      showError(box, e, form);
    } finally {
      if (submit) submit.disabled = false;
    }
  });
  return form;
}

