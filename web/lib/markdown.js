// Markdown → DOM (answers, notes, previews) and server HTML → DOM through an allow-list. Nothing here ever
// assigns a string as HTML: markdown is built node by node, server HTML is parsed inert by DOMParser and
// copied node by node (unknown tags unwrapped, dangerous ones dropped, only inert attributes kept).
import { add, h } from "./dom.js";
import { enc } from "./api.js";

const SAFE_SCHEMES = new Set(["http:", "https:", "mailto:"]);
/** An href that cannot run script: http(s)/mailto or a path on this server; null otherwise. */
export function safeHref(href) {
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
export const wikiHash = (brainId, slug) => `#/brains/${enc(brainId)}/wiki/${enc(slug)}`;

/**
 * Which wiki page a link points to, if any: a citation URL, a path ending in /pages/<slug> or /wiki/<slug>
 * on this server or the public URL, or an app hash route.
 */
export function wikiSlugOf(href, citations = []) {
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

export function wikiLink(brainId, slug, label) {
  return h("a", { href: wikiHash(brainId, slug), class: "wikilink", "data-slug": slug }, label ?? slug);
}

/**
 * What a brain-set citation ref names: `slug` or `slug@brainId` (the form used when two brains of the set
 * share a slug). The answer's own citations decide; while the answer streams in, before they are known,
 * only the unambiguous `slug@brainId` of a brain of the set resolves (a bare slug may be any brain's page).
 */
export function setRefResolver(citations, brains, primaryId) {
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
export function wikiText(text, brainId) {
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
export function markdown(src, ctx = {}) {
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
export function sanitizedHtml(html, ctx) {
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

