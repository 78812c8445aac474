// DOM helpers: every string becomes a text node (never parsed as HTML), labelled fields, announcements,
// the confirmation dialog and copying to the clipboard.
/** Creates an element. Strings among the children become text nodes: never parsed as HTML. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = String(v);
    else if (k === "value") el.value = v;
    else if (k === "checked" || k === "selected") el[k] = Boolean(v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  return add(el, children);
}
export function add(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
/** Replaces an element's children; like add(), null/false children are skipped and strings stay text. */
export function fill(el, ...children) {
  el.replaceChildren();
  return add(el, children);
}
export const $ = (sel, root = document) => root.querySelector(sel);
let uid = 0;
export const newId = (p = "f") => `${p}-${++uid}`;

/** A labelled form field. `control` is an input/select/textarea element (it gets an id for the label). */
export function field(label, control, hint, cls = "") {
  control.id ||= newId();
  const hintEl = hint ? h("span", { class: "hint", id: `${control.id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute("aria-describedby", hintEl.id);
  return h("div", { class: `field ${cls}` }, h("label", { for: control.id }, label), control, hintEl);
}
export function announce(message) {
  const a = $("#announcer");
  a.textContent = "";
  // A fresh text node makes screen readers speak it even when the message repeats.
  setTimeout(() => (a.textContent = message), 30);
}

/** A modal confirmation (native <dialog>: focus trapped, Escape cancels). Resolves true on confirm. */
export function confirmDialog(title, message, confirmLabel = "Delete", danger = true) {
  return new Promise((resolve) => {
    const ok = h("button", { type: "submit", value: "ok", class: danger ? "danger" : "" }, confirmLabel);
    const cancel = h("button", { type: "submit", value: "cancel", class: "secondary" }, "Cancel");
    const dialog = h(
      "dialog",
      { "aria-labelledby": "confirm-title" },
      h(
        "form",
        { method: "dialog", class: "stack" },
        h("h2", { id: "confirm-title" }, title),
        h("p", {}, message),
        h("div", { class: "actions" }, ok, cancel),
      ),
    );
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok");
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
    // The safe choice has the focus: Enter on a destructive dialog must not destroy.
    (danger ? cancel : ok).focus();
  });
}

export async function copyText(text, button, input) {
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    // Clipboard API unavailable (plain http on another host): select it for a manual copy.
    input?.focus();
    input?.select();
    button.textContent = "Press Ctrl+C to copy";
  }
  announce(button.textContent);
  setTimeout(() => (button.textContent = label), 2500);
}

/** A touch screen without a keyboard shortcut culture: no "Ctrl+Enter" hints there. */
export const isTouch = () => matchMedia("(pointer: coarse)").matches && !matchMedia("(any-pointer: fine)").matches;

/**
 * Names each cell after its column (`data-label`), so under ~720 px the stylesheet can show every row as a
 * card of "label: value" lines instead of a table cut off at the edge. Call again after adding rows.
 */
export function labelCells(table) {
  const labels = Array.from(table.querySelectorAll("thead th"), (th) => th.textContent.trim());
  for (const tr of table.querySelectorAll("tbody tr"))
    Array.from(tr.children).forEach((td, i) => labels[i] && !td.hasAttribute("data-label") && td.setAttribute("data-label", labels[i]));
  table.classList.add("cards-narrow");
  return table;
}
/** labelCells() for every data table under `root`. */
export const labelTables = (root) => root.querySelectorAll("table.data").forEach(labelCells);
