// Brainbox admin page: one ES module, no framework, no build step, nothing from the internet.
//
// Safety rules kept everywhere below:
// - text from the API or the user goes into the page only through textContent / DOM APIs (`h()`), never
//   through innerHTML, so a brain or source called `<img src=x onerror=…>` is shown as text;
// - HTML from the API (wiki pages, sanitized by the server) is parsed inert with DOMParser and copied
//   node by node through an allow-list before it touches the page (defence in depth, with the CSP);
// - the API key lives in sessionStorage: this tab only, gone when it closes.
//
// Extension points: NAV (top-level screens), ROUTES, BRAIN_TABS (tabs of a brain) and
// BRAIN_SETTINGS_SECTIONS (sections of a brain's settings). A screen is `async (view, params, signal)`.

const KEY_STORAGE = "brainbox.apiKey";
const POLL_MS = 1500;

// ---------------------------------------------------------------- API paths (one place)
const enc = encodeURIComponent;
const API = {
  health: "/api/health",
  account: "/api/v1/account",
  adminAccounts: "/api/v1/admin/accounts",
  adminAccount: (id) => `/api/v1/admin/accounts/${enc(id)}`,
  brains: "/api/v1/brains",
  accessibleBrains: "/api/brains",
  brain: (id) => `/api/v1/brains/${enc(id)}`,
  sources: (id) => `/api/v1/brains/${enc(id)}/sources`,
  source: (id, sid) => `/api/v1/brains/${enc(id)}/sources/${enc(sid)}`,
  reprocess: (id, sid) => `/api/v1/brains/${enc(id)}/sources/${enc(sid)}/reprocess`,
  uploadUrl: (id) => `/api/brains/${enc(id)}/sources/upload-url`,
  pages: (id) => `/api/v1/brains/${enc(id)}/pages`,
  page: (id, slug) => `/api/v1/brains/${enc(id)}/pages/${enc(slug)}`,
  ask: (id) => `/api/v1/brains/${enc(id)}/ask`,
  context: (id) => `/api/brains/${enc(id)}/context`,
  keys: "/api/user/api-keys",
  key: (id) => `/api/user/api-keys/${enc(id)}`,
  oauthGrants: "/api/user/oauth-grants",
  oauthGrant: (id) => `/api/user/oauth-grants/${enc(id)}`,
  mcpMetadata: "/.well-known/oauth-protected-resource/mcp",
  mcp: "/mcp",
  brainSets: "/api/v1/brain-sets",
  brainSet: (id) => `/api/v1/brain-sets/${enc(id)}`,
  brainSetAsk: (id) => `/api/v1/brain-sets/${enc(id)}/ask`,
  paid: (id) => `/api/v1/brains/${enc(id)}/paid`,
  bazaar: "/api/x402/bazaar",
};

// ---------------------------------------------------------------- DOM helpers
/** Creates an element. Strings among the children become text nodes: never parsed as HTML. */
function h(tag, props, ...children) {
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
function add(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
/** Replaces an element's children; like add(), null/false children are skipped and strings stay text. */
function fill(el, ...children) {
  el.replaceChildren();
  return add(el, children);
}
const $ = (sel, root = document) => root.querySelector(sel);
let uid = 0;
const newId = (p = "f") => `${p}-${++uid}`;

/** A labelled form field. `control` is an input/select/textarea element (it gets an id for the label). */
function field(label, control, hint, cls = "") {
  control.id ||= newId();
  const hintEl = hint ? h("span", { class: "hint", id: `${control.id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute("aria-describedby", hintEl.id);
  return h("div", { class: `field ${cls}` }, h("label", { for: control.id }, label), control, hintEl);
}

function announce(message) {
  const a = $("#announcer");
  a.textContent = "";
  // A fresh text node makes screen readers speak it even when the message repeats.
  setTimeout(() => (a.textContent = message), 30);
}

const fmtDate = (iso) => {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
};
const fmtBytes = (n) => {
  if (typeof n !== "number") return "";
  const units = ["B", "KB", "MB", "GB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) (n /= 1024), i++;
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
};
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// ---------------------------------------------------------------- API client
class ApiError extends Error {
  constructor(status, code, message, field, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.body = body;
  }
}
/** True when the server has no such route yet (a feature this server version does not offer). */
const missingRoute = (e) => e instanceof ApiError && e.status === 404 && e.code === "route_not_found";

function errorFrom(status, data, text) {
  const err = data && typeof data === "object" ? data.error : undefined;
  if (err && typeof err === "object") return new ApiError(status, err.code ?? `http_${status}`, err.message ?? `Request failed (${status})`, err.field, data);
  if (typeof err === "string") return new ApiError(status, `http_${status}`, err, undefined, data);
  const snippet = (text ?? "").trim().slice(0, 200);
  return new ApiError(status, `http_${status}`, snippet ? `Request failed (${status}): ${snippet}` : `Request failed (${status})`, undefined, data);
}

const session = {
  get key() {
    return sessionStorage.getItem(KEY_STORAGE);
  },
  account: null,
  usage: null,
  signIn(key) {
    sessionStorage.setItem(KEY_STORAGE, key);
  },
  signOut() {
    sessionStorage.removeItem(KEY_STORAGE);
    this.account = null;
    this.usage = null;
  },
};

/** fetch with the session key; JSON in and out; every failure becomes an ApiError with a readable message. */
async function api(path, { method = "GET", json, signal, headers, key = session.key, raw = false } = {}) {
  const hs = new Headers(headers);
  if (key) hs.set("authorization", `Bearer ${key}`);
  if (!hs.has("accept")) hs.set("accept", "application/json");
  let body;
  if (json !== undefined) {
    hs.set("content-type", "application/json");
    body = JSON.stringify(json);
  }
  let res;
  try {
    res = await fetch(path, { method, headers: hs, body, signal, cache: "no-store" });
  } catch (e) {
    if (e?.name === "AbortError") throw e;
    throw new ApiError(0, "network_error", "Could not reach the Brainbox server. Check that it is running and try again.");
  }
  if (res.status === 401 && key === session.key && session.key) {
    // The key was revoked (or the data dir was reset): back to the sign-in screen with a reason.
    session.signOut();
    signInReason = "Your API key is no longer accepted (it was revoked or is unknown). Sign in with another key.";
    queueMicrotask(render);
  }
  if (raw && res.ok) return res;
  if (res.status === 204) return null;
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if (!res.ok) throw errorFrom(res.status, data, text);
  return data;
}

/** A readable error box for an API failure; marks the offending field when the API names it. */
function showError(box, err, form) {
  if (err?.name === "AbortError") return;
  fill(box);
  if (!err) return;
  const e = err instanceof ApiError ? err : new ApiError(0, "client_error", err.message ?? String(err));
  const message = missingRoute(e) ? "This server does not offer this feature yet." : e.message;
  add(box, [h("strong", {}, message), h("span", { class: "code" }, e.status ? `${e.code} · HTTP ${e.status}` : e.code)]);
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
const errorBox = () => h("div", { class: "error", "aria-live": "assertive" });

/** Wires a form: disables its submit button while `action` runs and shows any error in `box`. */
function onSubmit(form, box, action) {
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

/** A modal confirmation (native <dialog>: focus trapped, Escape cancels). Resolves true on confirm. */
function confirmDialog(title, message, confirmLabel = "Delete", danger = true) {
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

// ---------------------------------------------------------------- markdown → DOM (answers, fallback pages)
const SAFE_SCHEMES = new Set(["http:", "https:", "mailto:"]);
/** An href that cannot run script: http(s)/mailto or a path on this server; null otherwise. */
function safeHref(href) {
  if (typeof href !== "string") return null;
  const trimmed = href.trim();
  if (trimmed.startsWith("#")) return trimmed;
  try {
    const u = new URL(trimmed, location.href);
    return SAFE_SCHEMES.has(u.protocol) ? u.href : null;
  } catch {
    return null;
  }
}
const wikiHash = (brainId, slug) => `#/brains/${enc(brainId)}/wiki/${enc(slug)}`;

/**
 * Which wiki page a link points to, if any: a citation URL, a path ending in /pages/<slug> or /wiki/<slug>
 * on this server or the public URL, or an app hash route.
 */
function wikiSlugOf(href, citations = []) {
  if (!href) return null;
  const cited = citations.find((c) => c.url && c.url === href);
  if (cited) return cited.slug;
  try {
    const u = new URL(href, location.href);
    const m = (u.hash.startsWith("#/") ? u.hash.slice(1) : u.pathname).match(/\/(?:pages|wiki)\/([^/?#]+)\/?$/);
    const fromCitations = citations.some((c) => c.url && new URL(c.url, location.href).origin === u.origin);
    if (m && (u.origin === location.origin || fromCitations)) return decodeURIComponent(m[1]);
  } catch {
    /* not a URL */
  }
  return null;
}

function wikiLink(brainId, slug, label) {
  return h("a", { href: wikiHash(brainId, slug), class: "wikilink", "data-slug": slug }, label ?? slug);
}

/**
 * What a brain-set citation ref names: `slug` or `slug@brainId` (the form used when two brains of the set
 * share a slug). The answer's own citations decide; while the answer streams in, before they are known,
 * only the unambiguous `slug@brainId` of a brain of the set resolves (a bare slug may be any brain's page).
 */
function setRefResolver(citations, brains, primaryId) {
  const byRef = new Map((citations ?? []).map((c) => [c.ref ?? c.slug, c]));
  const byId = new Map((brains ?? []).map((b) => [b.id, b]));
  return (ref) => {
    const c = byRef.get(ref);
    if (c) return { brainId: c.brain?.id ?? primaryId, slug: c.slug, title: c.title, brain: c.brain };
    const at = ref.lastIndexOf("@");
    const brain = at > 0 ? byId.get(ref.slice(at + 1)) : undefined;
    return brain ? { brainId: brain.id, slug: ref.slice(0, at), brain } : null;
  };
}

/** A citation link into a brain set's answer: the page's title, tagged with the brain it comes from. */
function setCitationLink(target, label) {
  const link = wikiLink(target.brainId, target.slug, label ?? target.title ?? target.slug);
  link.dataset.brainId = target.brainId;
  if (target.brain?.name) link.append(h("span", { class: "cite-brain" }, h("span", { class: "visually-hidden" }, " from "), target.brain.name));
  return link;
}

const INLINE =
  /`([^`\n]+)`|\[\[([^\]|\n]+)(?:\|([^\]\n]+))?\]\]|\[((?:\\.|[^\]\\\n])+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|\*\*([^*\n]+)\*\*|(?<!\w)__([^_\n]+)__(?!\w)|\*([^*\n]+)\*|(?<!\w)_([^_\n]+)_(?!\w)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])|\\([!-/:-@[-`{-~])/g;

/** Inline markdown to DOM nodes: code, [[wiki links]], [links](url), bold, italic, bare URLs, \\ escapes. */
function inline(text, ctx) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] !== undefined) out.push(h("code", {}, m[1]));
    else if (m[2] !== undefined) {
      const slug = m[2].trim();
      const target = ctx.resolveRef ? ctx.resolveRef(slug) : null;
      if (target) out.push(setCitationLink(target, m[3]?.trim()));
      else if (ctx.resolveRef) out.push((m[3] ?? slug.replace(/@[^@]*$/, "")).trim()); // not resolvable (yet): text
      else if (ctx.brainId) out.push(wikiLink(ctx.brainId, slug, (m[3] ?? ctx.titleOf?.(slug) ?? slug).trim()));
      else out.push(m[3] ?? slug);
    } else if (m[4] !== undefined) out.push(linkNode(m[4], m[5], ctx));
    else if (m[6] !== undefined || m[7] !== undefined) out.push(h("strong", {}, inline(m[6] ?? m[7], ctx)));
    else if (m[8] !== undefined || m[9] !== undefined) out.push(h("em", {}, inline(m[8] ?? m[9], ctx)));
    else if (m[10] !== undefined) out.push(linkNode(m[10], m[10], ctx));
    else if (m[11] !== undefined) out.push(m[11]); // a backslash-escaped character, shown as itself
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Plain text with its [[slug]] / [[slug|label]] links made navigable; nothing else is interpreted. */
function wikiText(text, brainId) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/\[\[([^\]|\n]+)(?:\|([^\]\n]+))?\]\]/g)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(wikiLink(brainId, m[1].trim(), (m[2] ?? m[1]).trim()));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function linkNode(label, href, ctx) {
  const plain = { ...ctx, brainId: null, resolveRef: null }; // no links inside a link's label
  // A cited page's URL goes to that page in its own brain (a set's citations come from several brains).
  const cited = (ctx.citations ?? []).find((c) => c.url && c.url === href);
  const brainId = cited?.brain?.id ?? ctx.brainId;
  const slug = brainId ? (cited?.slug ?? wikiSlugOf(href, ctx.citations)) : null;
  if (slug) return wikiLink(brainId, slug, inline(label, plain));
  const safe = safeHref(href);
  if (!safe) return document.createTextNode(label);
  return h("a", { href: safe, target: "_blank", rel: "noopener noreferrer nofollow" }, inline(label, plain));
}

/** Block markdown (headings, lists, quotes, code fences, rules, paragraphs) to a fragment. */
function markdown(src, ctx = {}) {
  const frag = document.createDocumentFragment();
  const lines = String(src ?? "").replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  const isBlockStart = (l) => /^(#{1,6}\s|```|~~~|>\s?|\s*([-*+]|\d+[.)])\s+|\s*(-{3,}|\*{3,}|_{3,})\s*$)/.test(l);
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    let m;
    if ((m = line.match(/^(```|~~~)\s*([\w-]*)/))) {
      const fence = m[1];
      const body = [];
      i++;
      while (i < lines.length && !lines[i].startsWith(fence)) body.push(lines[i++]);
      i++;
      frag.append(h("pre", {}, h("code", {}, body.join("\n"))));
    } else if ((m = line.match(/^(#{1,6})\s+(.*?)\s*#*\s*$/))) {
      // Headings inside content sit below the view's own h1/h2.
      const level = Math.min(6, m[1].length + (ctx.headingOffset ?? 1));
      frag.append(h(`h${level}`, {}, inline(m[2], ctx)));
      i++;
    } else if (/^\s*(-{3,}|\*{3,}|_{3,})\s*$/.test(line)) {
      frag.append(h("hr"));
      i++;
    } else if (/^>\s?/.test(line)) {
      const body = [];
      while (i < lines.length && /^>\s?/.test(lines[i])) body.push(lines[i++].replace(/^>\s?/, ""));
      frag.append(h("blockquote", {}, markdown(body.join("\n"), ctx)));
    } else if ((m = line.match(/^\s*([-*+]|\d+[.)])\s+/))) {
      const ordered = /\d/.test(m[1]);
      const list = h(ordered ? "ol" : "ul");
      while (i < lines.length && (m = lines[i].match(/^\s*([-*+]|\d+[.)])\s+(.*)$/)) && /\d/.test(m[1]) === ordered) {
        const item = [m[2]];
        i++;
        while (i < lines.length && lines[i].trim() && !isBlockStart(lines[i])) item.push(lines[i++].trim());
        list.append(h("li", {}, inline(item.join(" "), ctx)));
      }
      frag.append(list);
    } else {
      const para = [line];
      i++;
      while (i < lines.length && lines[i].trim() && !isBlockStart(lines[i])) para.push(lines[i++]);
      frag.append(h("p", {}, inline(para.join("\n"), ctx)));
    }
  }
  return frag;
}

// ---------------------------------------------------------------- sanitized HTML from the API → DOM
const ALLOWED_TAGS = new Set(
  "a p br hr h1 h2 h3 h4 h5 h6 ul ol li blockquote pre code em strong b i u s del ins sup sub small mark kbd table thead tbody tfoot tr th td caption img figure figcaption dl dt dd span div details summary".split(" "),
);
const DROPPED_TAGS = new Set(
  "script style template iframe frame frameset object embed noscript svg math form input button textarea select option link meta base title head audio video source track canvas portal".split(" "),
);

/**
 * Copies HTML (already sanitized by the server) into fresh nodes through an allow-list: unknown tags are
 * unwrapped, dangerous ones dropped with their content, only inert attributes kept, links checked, and
 * wiki links turned into in-app links. Nothing from the string is ever assigned with innerHTML.
 */
function sanitizedHtml(html, ctx) {
  const doc = new DOMParser().parseFromString(String(html ?? ""), "text/html");
  const frag = document.createDocumentFragment();
  copyChildren(doc.body, frag, ctx);
  return frag;
}

function copyChildren(from, to, ctx) {
  for (const node of from.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      // Text may still hold [[slug]] links the server left as text.
      add(to, ctx.brainId ? wikiText(node.data, ctx.brainId) : [node.data]);
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const tag = node.localName;
    if (DROPPED_TAGS.has(tag)) continue;
    if (!ALLOWED_TAGS.has(tag)) {
      copyChildren(node, to, ctx);
      continue;
    }
    const el = copyElement(node, tag, ctx);
    if (!el) {
      copyChildren(node, to, ctx);
      continue;
    }
    if (tag !== "img") copyChildren(node, el, ctx);
    to.append(el);
  }
}

function copyElement(node, tag, ctx) {
  const attr = (name) => node.getAttribute(name);
  if (tag === "a") {
    const href = attr("href");
    const slug = node.dataset.slug || (ctx.brainId ? wikiSlugOf(href, ctx.citations) : null);
    if (slug && ctx.brainId) return h("a", { href: wikiHash(ctx.brainId, slug), class: "wikilink", "data-slug": slug });
    const safe = safeHref(href ?? "");
    if (!safe) return null; // unwrap: keep the text, drop the link
    return h("a", { href: safe, title: attr("title"), target: safe.startsWith("#") ? null : "_blank", rel: "noopener noreferrer nofollow" });
  }
  if (tag === "img") {
    // Only images served by this server or inline raster data: the page never calls out to the internet.
    const src = attr("src") ?? "";
    let ok = /^data:image\/(png|gif|jpeg|webp);/i.test(src);
    try {
      ok ||= new URL(src, location.href).origin === location.origin;
    } catch {
      /* bad URL */
    }
    if (!ok) return h("span", { class: "muted" }, attr("alt") ? `[image: ${attr("alt")}]` : "[image]");
    return h("img", { src, alt: attr("alt") ?? "", title: attr("title"), width: attr("width"), height: attr("height"), loading: "lazy" });
  }
  const el = h(tag);
  if (tag === "th" || tag === "td") {
    for (const a of ["colspan", "rowspan"]) if (/^\d{1,3}$/.test(attr(a) ?? "")) el.setAttribute(a, attr(a));
  }
  if (tag === "ol" && /^\d{1,6}$/.test(attr("start") ?? "")) el.setAttribute("start", attr("start"));
  if ((tag === "code" || tag === "pre") && /^language-[\w-]{1,30}$/.test(attr("class") ?? "")) el.className = attr("class");
  return el;
}

// ---------------------------------------------------------------- server-sent events
/** Parses an SSE stream into {event, data} objects. */
async function* sseEvents(res) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  const parse = (block) => {
    let event = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (name === "event") event = value;
      else if (name === "data") data.push(value);
    }
    return { event, data: data.join("\n") };
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf = (buf + value).replace(/\r\n?/g, "\n");
    let end;
    while ((end = buf.indexOf("\n\n")) !== -1) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      if (block.trim()) yield parse(block);
    }
  }
  if (buf.trim()) yield parse(buf);
}

const jsonOr = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
/**
 * Asks with `Accept: text/event-stream`: `token` events carry raw text (onToken), `reset` voids the text so
 * far (the model failed mid-answer and a fallback follows), `done` carries the JSON result the plain call
 * returns, `error` a JSON error body. A server that answers plain JSON works too.
 */
async function askStreaming(path, question, { signal, onToken, onReset }) {
  const res = await api(path, { method: "POST", json: { question }, signal, raw: true, headers: { accept: "text/event-stream" } });
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream")) return res.json();
  for await (const { event, data } of sseEvents(res)) {
    if (event === "token" || event === "message") onToken(data);
    else if (event === "reset") onReset();
    else if (event === "done" || event === "result") return jsonOr(data) ?? {};
    else if (event === "error") {
      const body = jsonOr(data) ?? {};
      const err = body.error ?? body;
      throw new ApiError(res.status, err.code ?? "stream_error", err.message ?? (data || "The answer stream failed"), undefined, body);
    }
  }
  throw new ApiError(res.status, "stream_incomplete", "The answer stream ended before the answer was complete. Try again.");
}

// ---------------------------------------------------------------- shell: navigation, routing, sign-in
/** Top-level screens in the header. Later screens (paid settings, admin…) register here. */
const NAV = [
  { href: "#/", label: "Brains", active: (p) => p === "/" || p.startsWith("/brains") },
  { href: "#/sets", label: "Brain sets", active: (p) => p.startsWith("/sets") },
  { href: "#/keys", label: "API keys", active: (p) => p.startsWith("/keys") },
  { href: "#/account", label: "Plan & usage", active: (p) => p.startsWith("/account") },
];

/** Hash routes: pattern → screen. Parameters are URI-decoded. */
const ROUTES = [
  [/^\/$/, (v, _p, s) => brainsScreen(v, s)],
  [/^\/brains\/([^/]+)\/?(?:([a-z-]+)(?:\/(.+))?)?$/, (v, [id, tab, rest], s) => brainScreen(v, id, tab ?? "sources", rest, s)],
  [/^\/sets\/?$/, (v, _p, s) => setsScreen(v, s)],
  [/^\/keys\/?$/, (v, _p, s) => keysScreen(v, s)],
  [/^\/account\/?$/, (v, _p, s) => accountScreen(v, s)],
];

let current = { controller: new AbortController(), timers: new Set() };
let signInReason = "";
let renderSeq = 0;

/** Runs `fn` every `ms` until the view changes; returns a stop function. */
function every(ms, fn) {
  const id = setInterval(fn, ms);
  current.timers.add(id);
  return () => {
    clearInterval(id);
    current.timers.delete(id);
  };
}

function currentPath() {
  const hash = location.hash;
  if (!hash.startsWith("#/")) return "/";
  return hash.slice(1);
}

async function render() {
  const seq = ++renderSeq;
  current.controller.abort();
  for (const t of current.timers) clearInterval(t);
  current = { controller: new AbortController(), timers: new Set() };
  const { signal } = current.controller;
  const main = $("#main");
  const view = h("div", { class: "view" });

  if (!session.key) {
    setChrome(false);
    fill(main, view);
    signInScreen(view);
    return;
  }
  if (!session.account) {
    try {
      await loadAccount(signal);
    } catch (e) {
      if (seq !== renderSeq || e?.name === "AbortError") return;
      if (!session.key) return; // a 401 already scheduled the sign-in screen
      setChrome(false);
      fill(main, view);
      const box = errorBox();
      showError(box, e);
      const other = () => {
        session.signOut();
        render();
      };
      add(view, [
        h("h1", { tabindex: "-1" }, "Cannot load your account"),
        box,
        h("div", { class: "actions" }, h("button", { type: "button", onclick: () => render() }, "Retry"), h("button", { type: "button", class: "secondary", onclick: other }, "Use another key")),
      ]);
      return;
    }
    if (seq !== renderSeq) return;
  }
  setChrome(true);
  const path = currentPath();
  for (const a of $("#nav").querySelectorAll("a")) {
    const item = NAV.find((n) => n.href === a.getAttribute("href"));
    if (item?.active(path)) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  fill(main, view);
  const route = ROUTES.find(([re]) => re.test(path));
  if (!route) {
    add(view, [h("h1", { tabindex: "-1" }, "Not found"), h("p", {}, "There is no such screen. "), h("a", { href: "#/" }, "Back to brains")]);
  } else {
    const params = path.match(route[0]).slice(1).map((p) => (p === undefined ? undefined : safeDecode(p)));
    try {
      await route[1](view, params, signal);
    } catch (e) {
      if (e?.name === "AbortError" || seq !== renderSeq) return;
      const box = errorBox();
      showError(box, e);
      view.append(box);
    }
  }
  if (seq === renderSeq && focusOnRender) {
    focusOnRender = false;
    ($("h1", view) ?? main).focus({ preventScroll: false });
  }
}
let focusOnRender = false;
const safeDecode = (s) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

async function loadAccount(signal) {
  const data = await api(API.account, { signal });
  session.account = data.account ?? data;
  session.usage = data.usage ?? null;
}

function setChrome(signedIn) {
  $("#nav").hidden = !signedIn;
  $("#session").hidden = !signedIn;
  if (signedIn && session.account) {
    const a = session.account;
    $("#who").textContent = `${a.name ?? "Account"}${a.plan ? ` · ${a.plan}` : ""}`;
  }
}

function signInScreen(view) {
  const input = h("input", { type: "password", name: "key", autocomplete: "off", spellcheck: "false", required: true, placeholder: "bb_live_…" });
  const box = errorBox();
  if (signInReason) showError(box, new ApiError(401, "unauthorized", signInReason));
  signInReason = "";
  const form = h(
    "form",
    { class: "stack", "aria-labelledby": "signin-title" },
    field("API key", input, "Kept in this browser tab only, and forgotten when the tab closes."),
    box,
    h("button", { type: "submit" }, "Sign in"),
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
    announce("Signed in");
    focusOnRender = true;
    render();
  });
  add(view, [
    h(
      "section",
      { class: "card signin stack" },
      h("h1", { id: "signin-title", tabindex: "-1" }, "Sign in to Brainbox"),
      h(
        "p",
        { class: "muted" },
        "Use an API key. The server prints the owner's first key once, on its first start; more keys are created under API keys or with ",
        h("code", {}, "brainbox keys create --name NAME"),
        ".",
      ),
      form,
    ),
  ]);
  input.focus();
}

// ---------------------------------------------------------------- brains
async function brainsScreen(view, signal) {
  const listBox = h("div", { "aria-live": "polite" }, h("p", { class: "muted" }, "Loading brains…"));
  const box = errorBox();
  const name = h("input", { type: "text", name: "name", required: true, maxlength: "120", autocomplete: "off" });
  const emoji = h("input", { type: "text", name: "emoji", maxlength: "16", autocomplete: "off", placeholder: "🧠" });
  const visibility = h(
    "select",
    { name: "visibility" },
    h("option", { value: "private" }, "Private (only you)"),
    h("option", { value: "public" }, "Public (all accounts)"),
  );
  const form = h(
    "form",
    { class: "form-grid" },
    field("Name", name),
    field("Emoji", emoji, "Optional"),
    field("Visibility", visibility, "Public brains can be read and asked by every account"),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Create brain")),
    h("div", { class: "wide" }, box),
  );
  const load = async () => {
    const [own, accessible] = await Promise.all([
      api(API.brains, { signal }),
      api(API.accessibleBrains, { signal }).catch(() => ({ brains: [] })),
    ]);
    const ownIds = new Set(own.brains.map((b) => b.id));
    const shared = (accessible.brains ?? []).filter((b) => !ownIds.has(b.id));
    fill(listBox, brainsTable(own.brains, "Your brains", "No brains yet. Create the first one above."));
    if (shared.length) listBox.append(brainsTable(shared, "Public brains of other accounts"));
  };
  onSubmit(form, box, async (fd) => {
    const body = { name: String(fd.get("name")).trim(), visibility: fd.get("visibility") };
    const e = String(fd.get("emoji") ?? "").trim();
    if (e) body.emoji = e;
    const { brain } = await api(API.brains, { method: "POST", json: body, signal });
    form.reset();
    announce(`Brain “${brain.name}” created`);
    await load();
    name.focus();
  });
  add(view, [
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Brains")),
    h("p", { class: "muted" }, "A brain is a knowledge base built from your sources. Open one to add sources, browse its wiki and ask it questions."),
    h("section", { class: "card stack", "aria-labelledby": "create-brain" }, h("h2", { id: "create-brain" }, "Create a brain"), form),
    h("section", { class: "stack", "aria-label": "Brain list" }, listBox),
  ]);
  await load();
}

function brainsTable(brains, caption, emptyText) {
  const section = h("div", { class: "card stack" }, h("h2", {}, caption));
  if (!brains.length) return add(section, [h("p", { class: "empty" }, emptyText ?? "None.")]);
  const rows = brains.map((b) =>
    h(
      "tr",
      { "data-brain-id": b.id },
      h("td", { class: "title-cell" }, h("a", { href: `#/brains/${enc(b.id)}` }, `${b.emoji ? `${b.emoji} ` : ""}${b.name}`), h("span", { class: "sub mono" }, b.slug ?? "")),
      h("td", {}, h("span", { class: `badge ${b.visibility}` }, b.visibility ?? "private")),
      h("td", { class: "num" }, String(b.sourceCount ?? 0)),
      h(
        "td",
        { class: "nowrap hide-narrow" },
        h("a", { href: `#/brains/${enc(b.id)}/ask`, "aria-label": `Ask ${b.name}` }, "Ask"),
        " · ",
        h("a", { href: `#/brains/${enc(b.id)}/wiki`, "aria-label": `Wiki of ${b.name}` }, "Wiki"),
      ),
    ),
  );
  section.append(
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { class: "data" },
        h("caption", { class: "visually-hidden" }, caption),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Brain"), h("th", { scope: "col" }, "Visibility"), h("th", { scope: "col", class: "num" }, "Sources"), h("th", { scope: "col", class: "hide-narrow" }, h("span", { class: "visually-hidden" }, "Shortcuts")))),
        h("tbody", {}, rows),
      ),
    ),
  );
  return section;
}

/** Tabs of one brain. `owner: true` tabs show only to its owner. Paid settings etc. plug in here. */
const BRAIN_TABS = [
  { id: "sources", label: "Sources", render: sourcesTab },
  { id: "wiki", label: "Wiki", render: wikiTab },
  { id: "ask", label: "Ask", render: askTab },
  { id: "context", label: "Context", render: contextTab },
  { id: "settings", label: "Settings", render: settingsTab, owner: true },
];

async function brainScreen(view, brainId, tabId, rest, signal) {
  const { brain } = await api(API.brain(brainId), { signal });
  const owned = brain.owned !== false;
  const tabs = BRAIN_TABS.filter((t) => owned || !t.owner);
  const tab = tabs.find((t) => t.id === tabId);
  add(view, [
    h("div", { class: "crumbs" }, h("a", { href: "#/" }, "Brains"), " / "),
    h(
      "div",
      { class: "page-head" },
      h("h1", { tabindex: "-1" }, `${brain.emoji ? `${brain.emoji} ` : ""}${brain.name}`),
      h("span", { class: `badge ${brain.visibility}` }, brain.visibility),
      owned ? null : h("span", { class: "badge" }, "read-only: another account's brain"),
      h("span", { class: "muted small", id: "brain-source-count" }, plural(brain.sourceCount ?? 0, "source")),
    ),
    h(
      "nav",
      { class: "tabs", "aria-label": "Brain sections" },
      tabs.map((t) => h("a", { href: `#/brains/${enc(brain.id)}/${t.id}`, "aria-current": t.id === tabId ? "page" : null }, t.label)),
    ),
  ]);
  const panel = h("div", { class: "stack" });
  view.append(panel);
  if (!tab) return add(panel, [h("p", {}, "No such section.")]);
  await tab.render(panel, brain, rest, signal, owned);
}

// ---------------------------------------------------------------- sources
const ACTIVE = new Set(["pending", "processing", "queued", "running"]);
const TYPES_BY_EXT = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  html: "text/html",
  htm: "text/html",
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  csv: "text/csv",
  json: "application/json",
};
const contentTypeOf = (file) => file.type || TYPES_BY_EXT[file.name.split(".").pop()?.toLowerCase() ?? ""] || "application/octet-stream";

async function sourcesTab(panel, brain, _rest, signal, owned) {
  const tableBody = h("tbody");
  const listBox = h("div", { class: "table-wrap" });
  const emptyNote = h("p", { class: "empty" }, "No sources yet. Add a text passage, a note, a link or a file above.");
  let table = null; // built once, so polling never moves (and blurs) a focused button
  const listError = errorBox();
  const summary = h("p", { class: "muted small" });
  const rows = new Map(); // source id → {tr, cells, last status}
  let stopPoll = null;
  let pendingUploads = 0;

  // Loads run one after another; a poll tick is skipped while one runs, so a slow server never stacks them.
  let busy = false;
  let chain = Promise.resolve();
  const refresh = () => (chain = chain.then(load));
  const tick = () => busy || refresh();
  const load = async () => {
    busy = true;
    try {
      const { sources } = await api(API.sources(brain.id), { signal });
      fill(listError);
      update(sources);
      const active = sources.some((s) => ACTIVE.has(s.status)) || pendingUploads > 0;
      if (active && !stopPoll) stopPoll = every(POLL_MS, tick);
      if (!active && stopPoll) (stopPoll(), (stopPoll = null));
    } catch (e) {
      showError(listError, e);
    } finally {
      busy = false;
    }
  };

  const update = (sources) => {
    const seen = new Set();
    for (const s of sources) {
      seen.add(s.id);
      let row = rows.get(s.id);
      if (!row) {
        row = sourceRow(s);
        rows.set(s.id, row);
      } else if (row.status !== s.status && !ACTIVE.has(s.status)) {
        announce(s.status === "failed" ? `“${s.title}” failed: ${s.error ?? "unknown error"}` : `“${s.title}” is ${s.status}`);
      }
      row.paint(s);
    }
    for (const [id, row] of rows) if (!seen.has(id)) (row.tr.remove(), rows.delete(id));
    // Server order; a row is only moved when it is out of place (moving a node blurs its buttons).
    sources.forEach((s, i) => {
      const tr = rows.get(s.id).tr;
      if (tableBody.children[i] !== tr) tableBody.insertBefore(tr, tableBody.children[i] ?? null);
    });
    const headerCount = $("#brain-source-count");
    if (headerCount) headerCount.textContent = plural(sources.length, "source");
    const counts = {};
    for (const s of sources) counts[s.status] = (counts[s.status] ?? 0) + 1;
    summary.textContent = sources.length
      ? `${plural(sources.length, "source")}: ${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(", ")}`
      : "";
    table ??= h(
      "table",
      { class: "data" },
      h("caption", { class: "visually-hidden" }, "Sources"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Title"), h("th", { scope: "col", class: "hide-narrow" }, "Type"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col", class: "num hide-narrow" }, "Pages"), h("th", { scope: "col", class: "hide-narrow" }, "Updated"), owned ? h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")) : null)),
      tableBody,
    );
    const want = sources.length ? table : emptyNote;
    if (listBox.firstChild !== want) fill(listBox, want);
  };

  const sourceRow = (s) => {
    const title = h("span");
    const sub = h("span", { class: "sub" });
    const err = h("span", { class: "cell-error" });
    const type = h("td", { class: "hide-narrow" });
    const status = h("span", { class: "badge" });
    const pages = h("td", { class: "num hide-narrow" });
    const updated = h("td", { class: "nowrap small hide-narrow" });
    const reprocessBtn = h("button", { type: "button", class: "secondary small" }, "Re-process");
    const deleteBtn = h("button", { type: "button", class: "danger small" }, "Delete");
    const actionError = h("span", { class: "cell-error", role: "alert" });
    const tr = h(
      "tr",
      { "data-source-id": s.id },
      h("td", { class: "title-cell" }, title, sub, err),
      type,
      h("td", {}, status),
      pages,
      updated,
      owned ? h("td", { class: "nowrap" }, h("div", { class: "actions" }, reprocessBtn, deleteBtn), actionError) : null,
    );
    const row = {
      tr,
      status: s.status,
      current: s,
      paint(src) {
        row.current = src;
        row.status = src.status;
        title.textContent = src.title || src.filename || src.url || "(untitled)";
        sub.textContent = [src.url && src.url !== src.title ? src.url : "", src.filename && src.filename !== src.title ? src.filename : "", src.size ? fmtBytes(src.size) : ""].filter(Boolean).join(" · ");
        err.textContent = src.status === "failed" && src.error ? src.error : "";
        type.textContent = src.type;
        status.textContent = src.status;
        status.className = `badge ${src.status}`;
        pages.textContent = src.pageCount ?? "—";
        updated.textContent = fmtDate(src.updatedAt ?? src.createdAt);
        reprocessBtn.setAttribute("aria-label", `Re-process ${row.current.title}`);
        deleteBtn.setAttribute("aria-label", `Delete ${row.current.title}`);
      },
    };
    reprocessBtn.addEventListener("click", async () => {
      actionError.textContent = "";
      reprocessBtn.disabled = true;
      try {
        await api(API.reprocess(brain.id, row.current.id), { method: "POST", signal });
        announce(`Re-processing “${row.current.title}”`);
        await refresh();
      } catch (e) {
        if (e?.name !== "AbortError") actionError.textContent = e.message;
      } finally {
        reprocessBtn.disabled = false;
      }
    });
    deleteBtn.addEventListener("click", async () => {
      const ok = await confirmDialog("Delete this source?", `“${row.current.title}” and the wiki pages made from it will be deleted. This cannot be undone.`);
      if (!ok) return deleteBtn.focus();
      actionError.textContent = "";
      try {
        await api(API.source(brain.id, row.current.id), { method: "DELETE", signal });
        announce(`Deleted “${row.current.title}”`);
        await refresh();
        $("#sources-title")?.focus();
      } catch (e) {
        if (e?.name !== "AbortError") actionError.textContent = e.message;
      }
    });
    return row;
  };

  if (owned) panel.append(addSourceCard(brain, signal, refresh, (delta) => (pendingUploads += delta)));
  add(panel, [
    h("section", { class: "card stack", "aria-labelledby": "sources-title" }, h("div", { class: "row spread" }, h("h2", { id: "sources-title", tabindex: "-1" }, "Sources"), summary), listError, listBox),
  ]);
  await refresh();
}

function addSourceCard(brain, signal, refresh, uploading) {
  const box = errorBox();
  const done = h("p", { class: "success", role: "status", hidden: true });
  const kinds = [
    ["text", "Text"],
    ["note", "Note"],
    ["link", "Link"],
    ["file", "File"],
  ];
  const chooser = h(
    "fieldset",
    {},
    h("legend", { class: "visually-hidden" }, "Kind of source"),
    h(
      "div",
      { class: "segmented" },
      kinds.map(([value, label], i) => h("label", {}, h("input", { type: "radio", name: "kind", value, checked: i === 0 }), h("span", {}, label))),
    ),
  );
  const formHolder = h("div");
  const explain = {
    text: "A passage is synthesized into linked wiki pages that answers can cite.",
    note: "A note is stored verbatim as one wiki page (markdown), without synthesis.",
    link: "The server fetches the page, extracts its readable text and synthesizes it into the wiki.",
    file: "PDF, DOCX, HTML, Markdown or plain text. The file goes straight to storage, then it is processed.",
  };
  const hint = h("p", { class: "muted small" });

  const forms = {
    text: () => {
      const f = h(
        "form",
        { class: "form-grid", "aria-label": "Add a text passage" },
        field("Title", h("input", { type: "text", name: "title", required: true, maxlength: "500" }), null, "wide"),
        field("Content", h("textarea", { name: "content", required: true, rows: "6" }), null, "wide"),
        field("Source URL", h("input", { type: "url", name: "sourceUrl", placeholder: "https://…" }), "Optional: where the passage comes from"),
        h("div", { class: "actions" }, h("button", { type: "submit" }, "Add text")),
      );
      return onSubmit(f, box, async (fd) => {
        const body = { title: String(fd.get("title")).trim(), content: String(fd.get("content")) };
        const url = String(fd.get("sourceUrl") ?? "").trim();
        if (url) body.sourceUrl = url;
        await create(f, body);
      });
    },
    note: () => {
      const f = h(
        "form",
        { class: "form-grid", "aria-label": "Add a note" },
        field("Title", h("input", { type: "text", name: "title", required: true, maxlength: "500" }), null, "wide"),
        field("Note (markdown)", h("textarea", { name: "content", required: true, rows: "6" }), null, "wide"),
        h("div", { class: "actions" }, h("button", { type: "submit" }, "Add note")),
      );
      return onSubmit(f, box, (fd) => create(f, { title: String(fd.get("title")).trim(), content: String(fd.get("content")), mode: "note" }));
    },
    link: () => {
      const f = h(
        "form",
        { class: "form-grid", "aria-label": "Add a link" },
        field("URL", h("input", { type: "url", name: "url", required: true, placeholder: "https://example.com/article" }), null, "wide"),
        h("div", { class: "actions" }, h("button", { type: "submit" }, "Add link")),
      );
      return onSubmit(f, box, (fd) => create(f, { kind: "link", url: String(fd.get("url")).trim() }));
    },
    file: () => {
      const input = h("input", { type: "file", name: "file", required: true, accept: ".pdf,.docx,.html,.htm,.md,.markdown,.txt,text/*,application/pdf" });
      const progress = h("progress", { max: "100", value: "0", "aria-label": "Upload progress" });
      const status = h("p", { class: "upload-status muted", "aria-live": "polite" });
      const progressBox = h("div", { class: "wide stack", hidden: true }, progress, status);
      const f = h(
        "form",
        { class: "form-grid", "aria-label": "Upload a file" },
        field("File to upload", input, null, "wide"),
        progressBox,
        h("div", { class: "actions" }, h("button", { type: "submit" }, "Upload")),
      );
      return onSubmit(f, box, async () => {
        const file = input.files?.[0];
        if (!file) throw new ApiError(0, "invalid_request", "Choose a file first.", "file");
        if (file.size === 0) throw new ApiError(0, "invalid_request", "That file is empty.", "file");
        const contentType = contentTypeOf(file);
        progressBox.hidden = false;
        progress.value = 0;
        status.textContent = `Preparing upload of ${file.name}…`;
        const ticket = await api(API.uploadUrl(brain.id), { method: "POST", json: { filename: file.name, contentType, size: file.size }, signal });
        uploading(1);
        await refresh(); // the source appears now, pending its bytes
        try {
          await putWithProgress(ticket, file, contentType, (p) => {
            progress.value = Math.round(p * 100);
            status.textContent = `Uploading ${file.name}: ${Math.round(p * 100)}% of ${fmtBytes(file.size)}`;
          });
        } finally {
          uploading(-1);
        }
        progress.value = 100;
        status.textContent = `Uploaded ${file.name} (${fmtBytes(file.size)}). Processing has started.`;
        announce(`Uploaded ${file.name}`);
        f.reset();
        await refresh();
      });
    },
  };

  const create = async (form, body) => {
    done.hidden = true;
    const res = await api(API.sources(brain.id), { method: "POST", json: body, signal });
    const s = res.source ?? res;
    form.reset();
    done.textContent = res.created === false ? `“${s.title}” already existed (same external id); it was updated if its content changed.` : `Added “${s.title}”. It is being processed.`;
    done.hidden = false;
    announce(done.textContent);
    await refresh();
  };

  const show = (kind) => {
    fill(box);
    done.hidden = true;
    hint.textContent = explain[kind];
    fill(formHolder, forms[kind]());
  };
  chooser.addEventListener("change", (e) => show(e.target.value));
  show("text");
  return h("section", { class: "card stack", "aria-labelledby": "add-source" }, h("h2", { id: "add-source" }, "Add a source"), chooser, hint, formHolder, box, done);
}

/** PUTs the bytes to the upload URL with XMLHttpRequest (fetch has no upload progress). */
function putWithProgress(ticket, file, contentType, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(ticket.method ?? "PUT", ticket.uploadUrl);
    const headers = { "Content-Type": contentType, ...(ticket.headers ?? {}) };
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.addEventListener("progress", (e) => e.lengthComputable && onProgress(e.loaded / e.total));
    xhr.addEventListener("load", () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve(jsonOr(xhr.responseText));
      reject(errorFrom(xhr.status, jsonOr(xhr.responseText), xhr.responseText));
    });
    xhr.addEventListener("error", () =>
      reject(new ApiError(0, "upload_failed", "The upload could not reach storage (network error, or the upload URL is on another origin this page may not call).")),
    );
    xhr.addEventListener("abort", () => reject(new ApiError(0, "upload_aborted", "The upload was cancelled.")));
    xhr.send(file);
  });
}

// ---------------------------------------------------------------- wiki
async function wikiTab(panel, brain, slug, signal) {
  const list = h("ul");
  const filter = h("input", { type: "search", placeholder: "Filter pages", "aria-label": "Filter pages by title" });
  const count = h("p", { class: "muted small" });
  const article = h("article", { class: "card prose", "aria-live": "polite" });
  const listError = errorBox();
  add(panel, [
    h(
      "div",
      { class: "wiki" },
      h("nav", { class: "card wiki-list", "aria-label": "Wiki pages" }, h("h2", {}, "Pages"), filter, count, listError, list),
      article,
    ),
  ]);

  let pages = [];
  try {
    // The list comes in batches by slug; follow the cursor (a wiki of a few thousand pages stays quick).
    let cursor = null;
    do {
      const data = await api(`${API.pages(brain.id)}?limit=200${cursor ? `&cursor=${enc(cursor)}` : ""}`, { signal });
      pages.push(...(data.pages ?? []));
      cursor = data.nextCursor ?? null;
    } while (cursor && pages.length < 5000);
    pages.sort((a, b) => (a.title || a.slug).localeCompare(b.title || b.slug));
  } catch (e) {
    if (missingRoute(e)) {
      fill(article, h("p", { class: "notice" }, "This server does not serve wiki pages yet."));
      return;
    }
    showError(listError, e);
  }
  const titles = new Map(pages.map((p) => [p.slug, p.title]));
  const drawList = () => {
    const q = filter.value.trim().toLowerCase();
    const shown = pages.filter((p) => !q || `${p.title} ${p.slug}`.toLowerCase().includes(q));
    count.textContent = q ? `${shown.length} of ${plural(pages.length, "page")}` : plural(pages.length, "page");
    fill(list, ...shown.map((p) => h("li", {}, h("a", { href: wikiHash(brain.id, p.slug), "aria-current": p.slug === slug ? "page" : null }, p.title || p.slug))));
  };
  filter.addEventListener("input", drawList);
  drawList();

  if (!slug) {
    fill(article,
      h("h2", { tabindex: "-1" }, "Wiki"),
      pages.length
        ? h("p", { class: "muted" }, "Pick a page. Pages are written from the brain's sources and link to each other.")
        : h("p", { class: "empty" }, "No pages yet. Pages appear here once sources are processed."),
    );
    return;
  }
  fill(article, h("p", { class: "muted" }, "Loading page…"));
  try {
    const data = await api(API.page(brain.id, slug), { signal });
    const page = data.page ?? data;
    const ctx = { brainId: brain.id, titleOf: (s) => titles.get(s) };
    const body = page.html ? sanitizedHtml(page.html, ctx) : markdown(page.markdown ?? "", ctx);
    const meta = [
      page.source?.title ? `From “${page.source.title}”` : null,
      page.updatedAt ? `updated ${fmtDate(page.updatedAt)}` : null,
    ].filter(Boolean);
    const links = page.backlinks ?? page.linkedFrom ?? [];
    fill(article,
      h("h2", { tabindex: "-1", class: "page-title" }, page.title ?? slug),
      h("p", { class: "muted small" }, h("span", { class: "mono" }, page.slug ?? slug), meta.length ? ` · ${meta.join(" · ")}` : ""),
      h("div", { class: "page-body" }, body),
      links.length
        ? h("section", {}, h("h3", {}, "Linked from"), h("ul", {}, links.map((l) => h("li", {}, wikiLink(brain.id, l.slug ?? l, l.title ?? l.slug ?? l)))))
        : null,
    );
  } catch (e) {
    const box = errorBox();
    showError(box, e.status === 404 && !missingRoute(e) ? new ApiError(404, e.code, `No page “${slug}” in this brain. It may have been removed when its source changed.`) : e);
    fill(article, box);
  }
}

// ---------------------------------------------------------------- ask and context
async function askTab(panel, brain, _rest, signal) {
  panel.append(askCard({ path: API.ask(brain.id), brainId: brain.id, signal, label: `Ask ${brain.name}` }));
}

/**
 * A question box with a streamed answer, clickable citations and the thin state. Reused by brain sets:
 * `brains` (the set's brains, `{id, name, kind}`) switches to the set's [[ref]] citations, tagged by brain.
 */
function askCard({ path, brainId, signal, label, stream = true, brains = null }) {
  const question = h("textarea", { name: "question", required: true, rows: "3", placeholder: "What would you like to know?" });
  const box = errorBox();
  const stop = h("button", { type: "button", class: "secondary", hidden: true }, "Stop");
  const result = h("section", { class: "stack", "aria-label": "Answer", hidden: true });
  const form = h(
    "form",
    { class: "stack" },
    field(label, question, "Ctrl+Enter to ask"),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Ask"), stop),
    box,
  );
  question.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) form.requestSubmit();
  });
  let inflight = null;
  stop.addEventListener("click", () => inflight?.abort());
  signal.addEventListener("abort", () => inflight?.abort());

  onSubmit(form, box, async (fd) => {
    const q = String(fd.get("question") ?? "").trim();
    if (!q) throw new ApiError(0, "invalid_request", "Type a question first.", "question");
    inflight = new AbortController();
    const answer = h("div", { class: "answer prose card", "aria-busy": "true" });
    fill(result, h("h2", { class: "visually-hidden" }, "Answer"), answer);
    result.hidden = false;
    stop.hidden = false;
    let text = "";
    let frame = 0;
    const draw = () => {
      frame = 0;
      const refs = brains ? { resolveRef: setRefResolver([], brains, brainId) } : {};
      fill(answer, markdown(text, { brainId, headingOffset: 2, ...refs }));
    };
    try {
      const res = stream
        ? await askStreaming(path, q, {
            signal: inflight.signal,
            onToken: (t) => {
              text += t;
              frame ||= requestAnimationFrame(draw);
            },
            onReset: () => {
              text = "";
              frame ||= requestAnimationFrame(draw);
            },
          })
        : await api(path, { method: "POST", json: { question: q }, signal: inflight.signal });
      cancelAnimationFrame(frame);
      renderAnswer(result, answer, res, brainId, brains);
      announce(res.thin ? `The ${brains ? "brains" : "brain"} could not answer this question.` : "Answer ready.");
    } catch (e) {
      cancelAnimationFrame(frame);
      if (e?.name === "AbortError") {
        draw();
        answer.append(h("p", { class: "muted small" }, "Stopped."));
        return;
      }
      result.hidden = !text;
      throw e;
    } finally {
      answer.setAttribute("aria-busy", "false");
      stop.hidden = true;
      inflight = null;
    }
  });
  return h("div", { class: "stack" }, h("section", { class: "card" }, form), result);
}

/** Which brain of a set a citation comes from: its name and its role (primary or advisor). */
function citationTag(brain) {
  return h(
    "span",
    { class: "cite-tag" },
    h("span", { class: "visually-hidden" }, " from "),
    h("span", { class: "cite-brain-name" }, brain.name),
    brain.kind ? h("span", { class: `badge ${brain.kind === "primary" ? "public" : ""}` }, h("span", { class: "visually-hidden" }, ", "), brain.kind) : null,
  );
}

function renderAnswer(result, answer, res, brainId, brains = null) {
  const citations = res.citations ?? [];
  const text = res.answer ?? res.answerMd ?? "";
  const linkFor = (c) => wikiLink(c.brain?.id ?? brainId, c.slug, c.title || c.slug);
  // A set's answer cites [[ref]]s of several brains: each resolves through the answer's own citations.
  const refs = brains ? { resolveRef: setRefResolver(citations, brains, brainId) } : {};
  fill(answer, markdown(text, { brainId, citations, headingOffset: 2, ...refs }));
  const parts = [];
  if (res.thin) {
    parts.push(
      h(
        "div",
        { class: "notice warn", role: "status" },
        h("strong", {}, brains ? "The brains of this set do not know enough to answer. " : "This brain does not know enough to answer. "),
        `Nothing in ${brains ? "their" : "its"} pages supports an answer, so none was made up. Add sources that cover the question, or rephrase it.`,
      ),
    );
  }
  parts.push(answer);
  if (citations.length) {
    parts.push(
      h(
        "section",
        { class: "card", "aria-label": "Cited pages" },
        h("h3", {}, `Cited pages (${citations.length})`),
        h(
          "ol",
          { class: "citations" },
          citations.map((c) => h("li", { "data-brain-id": c.brain?.id }, linkFor(c), c.brain ? citationTag(c.brain) : null)),
        ),
      ),
    );
  }
  const meta = [];
  if (res.advisorContributed !== undefined) meta.push(res.advisorContributed ? "An advisor brain contributed." : "Only the primary brain contributed.");
  if (res.quota && typeof res.quota === "object" && res.quota.remaining !== undefined) meta.push(`${res.quota.remaining} of ${res.quota.limit} questions left this ${res.quota.period}.`);
  else if (typeof res.bank === "number") meta.push(`${plural(res.bank, "question")} left in your bank.`);
  if (meta.length) parts.push(h("p", { class: "muted small" }, meta.join(" ")));
  fill(result, h("h2", { class: "visually-hidden" }, "Answer"), ...parts);
}

async function contextTab(panel, brain, _rest, signal) {
  const query = h("input", { type: "search", name: "query", required: true, placeholder: "Topic or question" });
  const box = errorBox();
  const out = h("div", { class: "stack", "aria-live": "polite" });
  const form = h(
    "form",
    { class: "form-grid" },
    field("Retrieve the pages matching", query, "No answer is generated and it does not count against your question quota.", "wide"),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Get context")),
    h("div", { class: "wide" }, box),
  );
  onSubmit(form, box, async (fd) => {
    const q = String(fd.get("query") ?? "").trim();
    const res = await api(API.context(brain.id), { method: "POST", json: { query: q }, signal });
    const pages = res.pages ?? [];
    const text = res.contextText ?? res.context ?? "";
    const copy = h("button", { type: "button", class: "secondary small" }, "Copy context");
    copy.addEventListener("click", () => copyText(text, copy));
    fill(out,
      res.thin ? h("div", { class: "notice warn", role: "status" }, h("strong", {}, "Thin: "), "nothing in this brain matches well.") : null,
      h(
        "section",
        { class: "card" },
        h("h2", {}, `Matching pages (${pages.length})`),
        pages.length ? h("ol", { class: "citations" }, pages.map((p) => h("li", {}, wikiLink(brain.id, p.slug, p.title || p.slug)))) : h("p", { class: "muted" }, "None."),
      ),
      text ? h("section", { class: "card stack" }, h("div", { class: "row spread" }, h("h2", {}, "Context text"), copy), h("pre", { class: "context", tabindex: "0" }, text)) : null,
    );
  });
  add(panel, [h("section", { class: "card stack" }, h("h2", {}, "Context"), form), out]);
}

// ---------------------------------------------------------------- brain settings
/** Sections of a brain's settings; each `(brain, signal) → Node | Promise<Node|null>`. Paid settings plug in here. */
const BRAIN_SETTINGS_SECTIONS = [brainGeneralSection, brainPaidSection, brainDangerSection];

async function settingsTab(panel, brain, _rest, signal) {
  for (const section of BRAIN_SETTINGS_SECTIONS) {
    const node = await section(brain, signal);
    if (node) panel.append(node);
  }
}

function brainGeneralSection(brain, signal) {
  const box = errorBox();
  const saved = h("p", { class: "success", role: "status", hidden: true });
  const form = h(
    "form",
    { class: "form-grid" },
    field("Name", h("input", { type: "text", name: "name", required: true, maxlength: "120", value: brain.name })),
    field("Emoji", h("input", { type: "text", name: "emoji", maxlength: "16", value: brain.emoji ?? "" })),
    field(
      "Visibility",
      h(
        "select",
        { name: "visibility" },
        h("option", { value: "private", selected: brain.visibility === "private" }, "Private (only you)"),
        h("option", { value: "public", selected: brain.visibility === "public" }, "Public (all accounts)"),
      ),
    ),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Save")),
    h("div", { class: "wide" }, box, saved),
  );
  onSubmit(form, box, async (fd) => {
    saved.hidden = true;
    const body = {};
    const name = String(fd.get("name")).trim();
    const emoji = String(fd.get("emoji") ?? "").trim();
    if (name !== brain.name) body.name = name;
    if (emoji && emoji !== brain.emoji) body.emoji = emoji;
    if (fd.get("visibility") !== brain.visibility) body.visibility = fd.get("visibility");
    if (!Object.keys(body).length) {
      saved.textContent = "Nothing changed.";
      saved.hidden = false;
      return;
    }
    const res = await api(API.brain(brain.id), { method: "PATCH", json: body, signal });
    Object.assign(brain, res.brain);
    saved.textContent = "Saved.";
    saved.hidden = false;
    announce("Brain saved");
    // The heading and badge show the new name and visibility.
    focusOnRender = false;
    render();
  });
  return h("section", { class: "card stack", "aria-labelledby": "general" }, h("h2", { id: "general" }, "Name and visibility"), h("p", { class: "muted small" }, "A public brain appears in every account's list; others can read and ask it, but not change it."), form);
}

const USDC_DECIMALS = 6;
/** "0.01" USDC → "10000" atomic units, exactly (no floating point); null when not a positive amount. */
function toAtomic(amount) {
  const m = String(amount).trim().match(/^(\d*)(?:\.(\d*))?$/);
  if (!m || (!m[1] && !m[2]) || (m[2] ?? "").length > USDC_DECIMALS) return null;
  const atomic = `${m[1] || "0"}${(m[2] ?? "").padEnd(USDC_DECIMALS, "0")}`.replace(/^0+/, "");
  return atomic || null;
}
const fromAtomic = (atomic) => {
  const s = String(atomic).padStart(USDC_DECIMALS + 1, "0");
  return `${s.slice(0, -USDC_DECIMALS)}.${s.slice(-USDC_DECIMALS)}`.replace(/\.?0+$/, "");
};

/** Paid access (x402): price per question and the receiving address. Hidden on servers without it. */
function brainPaidSection(brain, signal) {
  if (!("paid" in brain)) return null; // this server has no paid rail
  const box = errorBox();
  const state = h("p", { role: "status" });
  const price = h("input", { type: "text", name: "priceAtomic", inputmode: "decimal", required: true, autocomplete: "off", placeholder: "0.01", value: brain.paid ? fromAtomic(brain.paid.priceAtomic) : "" });
  const payTo = h("input", { type: "text", name: "payTo", required: true, autocomplete: "off", spellcheck: "false", class: "mono", placeholder: "0x…", value: brain.paid?.payTo ?? "" });
  const stop = h("button", { type: "button", class: "secondary", hidden: !brain.paid }, "Stop charging");
  const form = h(
    "form",
    { class: "form-grid" },
    field("Price per question (USDC)", price, "Paid in USDC on the base network, per answered question"),
    field("Pay to", payTo, "The wallet address that receives the payments", "wide"),
    h("div", { class: "actions wide" }, h("button", { type: "submit" }, brain.paid ? "Update price" : "Charge for this brain"), stop),
    h("div", { class: "wide" }, box),
  );
  const show = () => {
    fill(state,
      brain.paid
        ? h("span", {}, h("span", { class: "badge public" }, "paid"), ` Anonymous agents pay ${fromAtomic(brain.paid.priceAtomic)} USDC per question at `, h("code", { class: "break" }, `/api/x402/${brain.id}/ask`), ".")
        : "Not charging. Charging makes the brain public: agents without an account pay per question with x402; a thin answer is never charged.",
    );
    stop.hidden = !brain.paid;
  };
  onSubmit(form, box, async (fd) => {
    const atomic = toAtomic(fd.get("priceAtomic"));
    if (!atomic) throw new ApiError(0, "invalid_request", "Enter a price above zero, with at most 6 decimals (e.g. 0.01).", "priceAtomic");
    const res = await api(API.paid(brain.id), { method: "PUT", json: { priceAtomic: atomic, payTo: String(fd.get("payTo")).trim() }, signal });
    Object.assign(brain, res.brain);
    show();
    announce("Paid access saved");
    render(); // the header shows the brain public now
  });
  stop.addEventListener("click", async () => {
    fill(box);
    try {
      const res = await api(API.paid(brain.id), { method: "DELETE", signal });
      Object.assign(brain, res.brain);
      show();
      announce("No longer charging for this brain");
      render();
    } catch (e) {
      showError(box, e);
    }
  });
  show();
  return h("section", { class: "card stack", "aria-labelledby": "paid" }, h("h2", { id: "paid" }, "Paid access (x402)"), state, form);
}

function brainDangerSection(brain, signal) {
  const box = errorBox();
  const del = h("button", { type: "button", class: "danger" }, "Delete this brain");
  del.addEventListener("click", async () => {
    const ok = await confirmDialog(`Delete “${brain.name}”?`, `Its ${plural(brain.sourceCount ?? 0, "source")}, wiki pages and vectors will be deleted. This cannot be undone.`, "Delete brain");
    if (!ok) return del.focus();
    try {
      await api(API.brain(brain.id), { method: "DELETE", signal });
      announce(`Brain “${brain.name}” deleted`);
      focusOnRender = true;
      location.hash = "#/";
    } catch (e) {
      showError(box, e);
    }
  });
  return h("section", { class: "card stack", "aria-labelledby": "danger" }, h("h2", { id: "danger" }, "Delete"), h("p", { class: "muted small" }, "Deleting a brain removes everything in it."), h("div", { class: "actions" }, del), box);
}

// ---------------------------------------------------------------- brain sets
async function setsScreen(view, signal) {
  add(view, [
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Brain sets")),
    h("p", { class: "muted" }, "A brain set blends a primary brain with 1 to 4 advisor brains: one answer, citations tagged by brain."),
  ]);
  if (session.usage && session.usage.brainSets === false) {
    view.append(h("p", { class: "notice warn" }, h("strong", {}, "Your plan does not include brain sets. "), "Asking a set needs a Pro or Team plan."));
  }
  const box = errorBox();
  const listBox = h("div", { class: "stack" });
  const [{ brains: own }, accessible] = await Promise.all([api(API.brains, { signal }), api(API.accessibleBrains, { signal }).catch(() => ({ brains: [] }))]);
  const all = [...own, ...(accessible.brains ?? []).filter((b) => !own.some((o) => o.id === b.id))];
  const nameOf = (b) => `${b.emoji ? `${b.emoji} ` : ""}${b.name}`;
  const primary = h("select", { name: "primaryBrainId", required: true }, h("option", { value: "" }, "Choose…"), all.map((b) => h("option", { value: b.id }, nameOf(b))));
  const advisors = h(
    "fieldset",
    { class: "wide" },
    h("legend", {}, "Advisors ", h("span", { class: "hint" }, "(1 to 4)")),
    h("div", { class: "row" }, all.map((b) => h("label", { class: "check" }, h("input", { type: "checkbox", name: "advisorBrainIds", value: b.id }), nameOf(b)))),
  );
  // The primary cannot also advise itself.
  primary.addEventListener("change", () => {
    for (const box of advisors.querySelectorAll("input")) {
      box.disabled = box.value === primary.value;
      if (box.disabled) box.checked = false;
    }
  });
  const form = h(
    "form",
    { class: "form-grid" },
    field("Name", h("input", { type: "text", name: "name", required: true, maxlength: "120" })),
    field("Primary brain", primary),
    advisors,
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Create set")),
    h("div", { class: "wide" }, box),
  );
  const load = async () => {
    let sets;
    try {
      sets = (await api(API.brainSets, { signal })).brainSets ?? [];
    } catch (e) {
      if (missingRoute(e)) return fill(listBox, h("p", { class: "notice" }, "This server does not offer brain sets yet."));
      throw e;
    }
    fill(listBox,
      ...(sets.length ? sets.map((s) => setCard(s, signal, load)) : [h("p", { class: "empty" }, "No brain sets yet.")]),
    );
  };
  onSubmit(form, box, async (fd) => {
    const body = { name: String(fd.get("name")).trim(), primaryBrainId: fd.get("primaryBrainId"), advisorBrainIds: fd.getAll("advisorBrainIds") };
    if (!body.advisorBrainIds.length) throw new ApiError(0, "invalid_request", "Pick at least one advisor brain.", "advisorBrainIds");
    const { brainSet } = await api(API.brainSets, { method: "POST", json: body, signal });
    form.reset();
    announce(`Brain set “${brainSet.name}” created`);
    await load();
  });
  add(view, [
    all.length >= 2
      ? h("section", { class: "card stack", "aria-labelledby": "new-set" }, h("h2", { id: "new-set" }, "Create a brain set"), form)
      : h("p", { class: "notice" }, "A set needs at least two brains. Create more brains first."),
    h("section", { "aria-label": "Your brain sets" }, listBox),
  ]);
  await load();
}

function setCard(set, signal, reload) {
  const box = errorBox();
  const del = h("button", { type: "button", class: "danger small" }, "Delete set");
  const askHolder = h("div");
  const askBtn = h("button", { type: "button", class: "secondary small", "aria-expanded": "false" }, "Ask this set");
  askBtn.addEventListener("click", () => {
    const open = askBtn.getAttribute("aria-expanded") === "true";
    askBtn.setAttribute("aria-expanded", String(!open));
    const brains = [
      ...(set.primary ? [{ ...set.primary, kind: "primary" }] : []),
      ...(set.advisors ?? []).map((a) => ({ ...a, kind: "advisor" })),
    ];
    fill(askHolder, open ? "" : askCard({ path: API.brainSetAsk(set.id), brainId: set.primary?.id, signal, label: `Ask ${set.name}`, brains }));
    if (!open) askHolder.querySelector("textarea")?.focus();
  });
  del.addEventListener("click", async () => {
    if (!(await confirmDialog(`Delete the set “${set.name}”?`, "Its brains are kept.", "Delete set"))) return del.focus();
    try {
      await api(API.brainSet(set.id), { method: "DELETE", signal });
      announce(`Set “${set.name}” deleted`);
      await reload();
    } catch (e) {
      showError(box, e);
    }
  });
  const brainLink = (b) => h("a", { href: `#/brains/${enc(b.id)}` }, b.name);
  return h(
    "article",
    { class: "card stack", "aria-label": `Brain set ${set.name}` },
    h("div", { class: "row spread" }, h("h2", {}, set.name), h("div", { class: "actions" }, askBtn, del)),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Primary"),
      h("dd", {}, set.primary ? brainLink(set.primary) : "—"),
      h("dt", {}, "Advisors"),
      h("dd", {}, (set.advisors ?? []).flatMap((a, i) => (i ? [", ", brainLink(a)] : [brainLink(a)]))),
    ),
    box,
    askHolder,
  );
}

// ---------------------------------------------------------------- API keys
async function keysScreen(view, signal) {
  const box = errorBox();
  const fresh = h("div");
  const listBox = h("div", { class: "table-wrap" });
  const listError = errorBox();
  const name = h("input", { type: "text", name: "name", required: true, maxlength: "100", placeholder: "e.g. laptop, CI, MCP connector" });
  const form = h(
    "form",
    { class: "form-grid" },
    field("Key name", name, "A label to recognise the key by"),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Create key")),
    h("div", { class: "wide" }, box),
  );
  const mine = (k) => session.key && k.hint && session.key.endsWith(k.hint.slice(-4)) && session.key.startsWith(k.prefix ?? "");

  const load = async () => {
    try {
      const { apiKeys } = await api(API.keys, { signal });
      fill(listError);
      fill(listBox,
        apiKeys.length
          ? h(
              "table",
              { class: "data" },
              h("caption", { class: "visually-hidden" }, "API keys"),
              h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, "Key"), h("th", { scope: "col", class: "hide-narrow" }, "Created"), h("th", { scope: "col", class: "hide-narrow" }, "Last used"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")))),
              h("tbody", {}, apiKeys.map((k) => keyRow(k))),
            )
          : h("p", { class: "empty" }, "No keys."),
      );
    } catch (e) {
      showError(listError, e);
    }
  };

  const keyRow = (k) => {
    const revoke = h("button", { type: "button", class: "danger small", "aria-label": `Revoke ${k.name}` }, "Revoke");
    const rowError = h("span", { class: "cell-error", role: "alert" });
    revoke.addEventListener("click", async () => {
      const self = mine(k);
      const ok = await confirmDialog(
        `Revoke “${k.name}”?`,
        self ? "This looks like the key this tab is signed in with: you will be signed out. Anything using it gets 401 from now on." : "Anything using this key gets 401 from now on. This cannot be undone.",
        "Revoke key",
      );
      if (!ok) return revoke.focus();
      try {
        await api(API.key(k.id), { method: "DELETE", signal });
        announce(`Key “${k.name}” revoked`);
        await load();
      } catch (e) {
        if (e?.name !== "AbortError") rowError.textContent = e.message;
      }
    });
    return h(
      "tr",
      { "data-key-id": k.id },
      h("td", { class: "title-cell" }, k.name, mine(k) ? h("span", { class: "sub" }, "this tab's key (probably)") : null),
      h("td", { class: "mono small nowrap" }, k.hint ?? k.prefix ?? ""),
      h("td", { class: "small nowrap hide-narrow" }, fmtDate(k.createdAt)),
      h("td", { class: "small nowrap hide-narrow" }, k.lastUsedAt ? fmtDate(k.lastUsedAt) : "never"),
      h("td", {}, k.revokedAt ? h("span", { class: "badge failed", title: `Revoked ${fmtDate(k.revokedAt)}` }, "revoked") : h("span", { class: "badge ready" }, "active")),
      h("td", {}, k.revokedAt ? null : revoke, rowError),
    );
  };

  onSubmit(form, box, async (fd) => {
    const created = await api(API.keys, { method: "POST", json: { name: String(fd.get("name")).trim() }, signal });
    form.reset();
    fill(fresh, newKeyPanel(created.key, `Key “${created.name}” created`));
    $("input", fresh).focus();
    await load();
  });

  const apps = connectedAppsSection(signal);
  const mcp = mcpConnectSection(signal);
  add(view, [
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "API keys")),
    h("p", { class: "muted" }, "A key carries your account's full access: treat it as a password. Only a hash is stored, so the full key is shown once, when it is created."),
    h("section", { class: "card stack", "aria-labelledby": "new-key" }, h("h2", { id: "new-key" }, "Create a key"), form, fresh),
    h("section", { class: "card stack", "aria-labelledby": "key-list" }, h("h2", { id: "key-list" }, "Your keys"), listError, listBox),
    mcp.section,
    apps.section,
  ]);
  await Promise.all([load(), apps.load(), mcp.load()]);
}

/** Applications connected with OAuth (MCP hosts and other connectors): when, last use, and revoking them. */
function connectedAppsSection(signal) {
  const listBox = h("div", { class: "table-wrap" });
  const listError = errorBox();
  const section = h(
    "section",
    { class: "card stack", "aria-labelledby": "apps" },
    h("h2", { id: "apps" }, "Connected apps"),
    h("p", { class: "muted small" }, "Applications you approved with OAuth, such as MCP clients. Each one acts with your account's access until you revoke it."),
    listError,
    listBox,
  );
  const load = async () => {
    try {
      const { grants } = await api(API.oauthGrants, { signal });
      fill(listError);
      fill(listBox,
        grants.length
          ? h(
              "table",
              { class: "data" },
              h("caption", { class: "visually-hidden" }, "Connected apps"),
              h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "App"), h("th", { scope: "col", class: "hide-narrow" }, "Connected"), h("th", { scope: "col", class: "hide-narrow" }, "Last used"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")))),
              h("tbody", {}, grants.map((g) => grantRow(g))),
            )
          : h("p", { class: "empty" }, "No connected apps. An MCP client that signs in with OAuth appears here once you approve it."),
      );
    } catch (e) {
      if (missingRoute(e)) return fill(listBox, h("p", { class: "notice" }, "This server does not offer OAuth connections yet."));
      showError(listError, e);
    }
  };
  const grantRow = (g) => {
    const name = g.client?.name || "Unnamed app";
    const revoke = h("button", { type: "button", class: "danger small", "aria-label": `Revoke ${name}` }, "Revoke");
    const rowError = h("span", { class: "cell-error", role: "alert" });
    revoke.addEventListener("click", async () => {
      const ok = await confirmDialog(`Revoke “${name}”?`, "It loses access at once: its tokens get 401 from now on. To use it again, connect it again and approve it.", "Revoke access");
      if (!ok) return revoke.focus();
      try {
        await api(API.oauthGrant(g.id), { method: "DELETE", signal });
        announce(`“${name}” disconnected`);
        await load();
        $("#apps")?.focus();
      } catch (e) {
        if (e?.name !== "AbortError") rowError.textContent = e.message;
      }
    });
    const about = [g.client?.uri, g.resource ? `for ${g.resource}` : null].filter(Boolean).join(" · ");
    return h(
      "tr",
      { "data-grant-id": g.id },
      h("td", { class: "title-cell" }, h("span", { class: "app-name" }, name), about ? h("span", { class: "sub break" }, about) : null),
      h("td", { class: "small nowrap hide-narrow" }, fmtDate(g.createdAt)),
      h("td", { class: "small nowrap hide-narrow" }, g.lastUsedAt ? fmtDate(g.lastUsedAt) : "never"),
      h("td", {}, g.revokedAt ? h("span", { class: "badge failed", title: `Revoked ${fmtDate(g.revokedAt)}` }, "revoked") : h("span", { class: "badge ready" }, "active")),
      h("td", {}, g.revokedAt ? null : revoke, rowError),
    );
  };
  $("h2", section).tabIndex = -1;
  return { section, load };
}

/** Where an MCP client connects: the MCP endpoint as the server's OAuth metadata names it, with copy buttons. */
function mcpConnectSection(signal) {
  const endpoint = (label, hint) => {
    const input = h("input", { type: "text", readonly: true, class: "mono", spellcheck: "false", value: "" });
    input.addEventListener("focus", () => input.select());
    const copy = h("button", { type: "button", class: "secondary", "aria-label": `Copy ${label}` }, "Copy");
    copy.addEventListener("click", () => copyText(input.value, copy, input));
    const wrapped = field(label, input, hint, "endpoint");
    wrapped.insertBefore(h("div", { class: "row" }, input, copy), wrapped.querySelector(".hint"));
    return { el: wrapped, set: (url) => (input.value = url) };
  };
  const account = endpoint("MCP endpoint", "Add it as a remote MCP server (Streamable HTTP). The client signs in with OAuth: you approve it with one of your API keys. A client without OAuth can send an API key as a Bearer token.");
  const paid = endpoint("MCP endpoint for paid brains", "For agents without an account: only paid brains, each question paid with x402.");
  const show = (url) => {
    account.set(url);
    paid.set(`${url}/x402`);
  };
  show(location.origin + API.mcp);
  const section = h(
    "section",
    { class: "card stack", "aria-labelledby": "mcp-connect" },
    h("h2", { id: "mcp-connect" }, "Connect an MCP client"),
    account.el,
    paid.el,
  );
  // Behind a proxy the server's public URL is the one clients must use: its metadata names it.
  const load = async () => {
    try {
      const meta = await api(API.mcpMetadata, { signal, key: null });
      const url = new URL(String(meta?.resource ?? ""));
      if ((url.protocol === "https:" || url.protocol === "http:") && !url.search && !url.hash) show(url.href.replace(/\/$/, ""));
    } catch {
      /* no metadata (an older server, or none configured): the page's own origin stays */
    }
  };
  return { section, load };
}

/** The full key, shown once, with a copy button. */
function newKeyPanel(key, title) {
  const input = h("input", { type: "text", readonly: true, value: key, "aria-label": "The new API key", class: "mono", spellcheck: "false" });
  input.addEventListener("focus", () => input.select());
  const copy = h("button", { type: "button" }, "Copy");
  copy.addEventListener("click", () => copyText(key, copy, input));
  const dismiss = h("button", { type: "button", class: "secondary" }, "I have stored it");
  const panel = h(
    "div",
    { class: "key-once stack", role: "status" },
    h("h3", {}, title),
    h("p", {}, h("strong", {}, "Copy this key now. "), "It will not be shown again; if you lose it, revoke it and create another."),
    h("div", { class: "row" }, h("div", { class: "field grow" }, input), copy, dismiss),
  );
  dismiss.addEventListener("click", () => panel.remove());
  return panel;
}

async function copyText(text, button, input) {
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

// ---------------------------------------------------------------- account, plan and usage
async function accountScreen(view, signal) {
  const [data, health] = await Promise.all([api(API.account, { signal }), api(API.health, { signal, key: null }).catch(() => null)]);
  const account = data.account ?? data;
  const usage = data.usage;
  session.account = account;
  session.usage = usage ?? null;
  setChrome(true);
  const meter = (label, q) =>
    q
      ? h(
          "div",
          { class: "meter" },
          h("div", { class: "row spread" }, h("strong", {}, label), h("span", { class: "small" }, `${q.used} of ${q.limit} used · ${q.remaining} left`)),
          h("progress", { max: String(Math.max(q.limit, 1)), value: String(Math.min(q.used, q.limit)), "aria-label": `${label}: ${q.used} of ${q.limit} used` }),
          h("span", { class: "muted small" }, q.resetsAt ? `Resets ${fmtDate(q.resetsAt)} (per ${q.period})` : q.period === "lifetime" ? "Lifetime: does not reset" : ""),
        )
      : null;
  add(view, [
    h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, "Plan & usage")),
    h(
      "div",
      { class: "grid-2" },
      h(
        "section",
        { class: "card stack", "aria-labelledby": "acct" },
        h("h2", { id: "acct" }, "Account"),
        h(
          "dl",
          { class: "facts" },
          h("dt", {}, "Name"),
          h("dd", {}, account.name ?? "—"),
          h("dt", {}, "Plan"),
          h("dd", {}, h("span", { class: "badge public" }, account.plan ?? usage?.plan ?? "—")),
          h("dt", {}, "Role"),
          h("dd", {}, account.isAdmin ? "Admin of this installation" : "Member"),
          h("dt", {}, "Brain sets"),
          h("dd", {}, usage ? (usage.brainSets ? "Included" : "Not on this plan") : "—"),
          h("dt", {}, "Since"),
          h("dd", {}, fmtDate(account.createdAt)),
        ),
      ),
      usage
        ? h(
            "section",
            { class: "card stack", "aria-labelledby": "usage" },
            h("h2", { id: "usage" }, "Questions"),
            h("p", { class: "muted small" }, usage.metering === "bank" ? "Your plan spends a lifetime question bank on each v1 ask." : "Your plan has a question quota per period for v1 asks."),
            usage.metering === "bank" ? meter("Question bank", usage.bank) : meter("Quota", usage.quota),
            meter("Daily (unversioned ask)", usage.daily),
            h("p", { class: "muted small" }, "Context retrieval is never counted."),
          )
        : null,
      health
        ? h(
            "section",
            { class: "card stack", "aria-labelledby": "server" },
            h("h2", { id: "server" }, "Server"),
            h(
              "dl",
              { class: "facts" },
              h("dt", {}, "Version"),
              h("dd", {}, health.version ?? "—"),
              h("dt", {}, "Database"),
              h("dd", {}, `${health.database?.kind ?? "?"} · ${health.database?.ok ? "ok" : "unavailable"}`),
              h("dt", {}, "Retrieval"),
              h("dd", {}, health.embedder ? `${health.embedder.retrieval}${health.embedder.active && health.embedder.active !== "none" ? ` (${health.embedder.active})` : ""}` : "—"),
              h("dt", {}, "Answers"),
              h("dd", {}, health.generator ? `${health.generator.active}${health.generator.model && health.generator.reachable ? ` (${health.generator.model})` : ""}` : "—"),
            ),
          )
        : null,
    ),
  ]);
  if (account.isAdmin) view.append(await adminAccountsSection(signal));
}

/** Admin only: every account, its plan, and new accounts (their first key shown once). */
async function adminAccountsSection(signal) {
  const section = h("section", { class: "card stack", "aria-labelledby": "accounts" }, h("h2", { id: "accounts" }, "Accounts"));
  const listBox = h("div", { class: "table-wrap" });
  const box = errorBox();
  const fresh = h("div");
  const plans = ["free", "pro", "team"];
  const form = h(
    "form",
    { class: "form-grid" },
    field("Account name", h("input", { type: "text", name: "name", required: true, maxlength: "120" })),
    field("Plan", h("select", { name: "plan" }, plans.map((p) => h("option", { value: p }, p)))),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Create account")),
    h("div", { class: "wide" }, box),
  );
  const load = async () => {
    const { accounts } = await api(API.adminAccounts, { signal });
    fill(listBox,
      h(
        "table",
        { class: "data" },
        h("caption", { class: "visually-hidden" }, "Accounts"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, "Plan"), h("th", { scope: "col", class: "hide-narrow" }, "Created"))),
        h(
          "tbody",
          {},
          accounts.map((a) => {
            const select = h("select", { "aria-label": `Plan of ${a.name}` }, plans.map((p) => h("option", { value: p, selected: p === a.plan }, p)));
            const err = h("span", { class: "cell-error", role: "alert" });
            select.addEventListener("change", async () => {
              err.textContent = "";
              try {
                await api(API.adminAccount(a.id), { method: "PATCH", json: { plan: select.value }, signal });
                announce(`${a.name} is now on ${select.value}`);
              } catch (e) {
                err.textContent = e.message;
                select.value = a.plan;
              }
            });
            return h("tr", {}, h("td", { class: "title-cell" }, a.name, a.isAdmin ? h("span", { class: "sub" }, "admin") : null), h("td", {}, select, err), h("td", { class: "small nowrap hide-narrow" }, fmtDate(a.createdAt)));
          }),
        ),
      ),
    );
  };
  onSubmit(form, box, async (fd) => {
    const res = await api(API.adminAccounts, { method: "POST", json: { name: String(fd.get("name")).trim(), plan: fd.get("plan") }, signal });
    form.reset();
    fill(fresh, newKeyPanel(res.apiKey.key, `Account “${res.account.name}” created: its first key`));
    await load();
  });
  add(section, [form, fresh, listBox]);
  try {
    await load();
  } catch (e) {
    showError(box, e);
  }
  return section;
}

// ---------------------------------------------------------------- start
function start() {
  fill($("#nav"), ...NAV.map((n) => h("a", { href: n.href }, n.label)));
  $("#sign-out").addEventListener("click", () => {
    session.signOut();
    announce("Signed out");
    history.replaceState(null, "", "#/");
    render();
  });
  $("#skip-link").addEventListener("click", (e) => {
    e.preventDefault();
    ($("h1", $("#main")) ?? $("#main")).focus();
  });
  window.addEventListener("hashchange", () => {
    if (!location.hash.startsWith("#/") && location.hash !== "") return;
    focusOnRender = true;
    render();
  });
  render();
}

start();
