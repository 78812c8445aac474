// The pages a shaped answer reads: the retrieved ones, and the page of a name it meets on the way (a bridge's
// next hop, a compared option), found by asking the retriever for that name and keeping a page titled so.
// The ranking is the retriever's; this only reads titles.
import { escapeRegExp } from "../../../lib/regexp";
import type { Retrieval, RetrievedPage } from "../../../retrieval";
import { sentencesOf } from "../sentences";
import { withoutTitle } from "../words/titles";

export type Lookup = (query: string) => Promise<Retrieval>;

export interface PageReader {
  /** The pages read so far, retrieved first. */
  readonly pages: RetrievedPage[];
  /** The page titled `name` (its title without a bracketed qualifier), or null. */
  byName(name: string, context?: string): Promise<RetrievedPage | null>;
  /**
   * Every page of a name, likeliest first: titled by one of its forms (nameForms) or by a part of it ("National
   * Security Agency" of "United States National Security Agency"); a name's several pages (namesakes, or a
   * subject written up in several pages) are all read.
   */
  pagesOf(name: string, context?: string): Promise<RetrievedPage[]>;
  /** The pages whose titles the text writes, longest first. */
  titledIn(text: string): RetrievedPage[];
  sentences(page: RetrievedPage): string[];
  /** The retriever's pages for a query, added to those read. */
  search(query: string): Promise<RetrievedPage[]>;
}

/** Case-, accent- and punctuation-blind form of a name. */
export const plain = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * Whether `text` writes the plain name `name` with a capital somewhere in it, as a name is written; a text
 * written all in lower case writes every name so (a name is then told by its words alone).
 */
export function writesAsName(text: string, name: string): boolean {
  const bare = text.normalize("NFKD").replace(/\p{M}/gu, "");
  if (bare === bare.toLowerCase()) return true;
  const words = name.split(" ").map(escapeRegExp);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${words.join("[^\\p{L}\\p{N}]+")}(?![\\p{L}\\p{N}])`, "giu");
  return [...bare.matchAll(pattern)].some((m) => m[0] !== m[0].toLowerCase());
}

/** A title without its bracketed qualifier ("Kanyaka (Film)" is "Kanyaka"). */
export const bareTitle = (title: string) => plain(title.replace(/\s*\([^)]*\)\s*$/, "")) || plain(title);

/** Whether `name` names the page titled `title`: the same, or the title's first part before a comma. */
export function names(name: string, title: string): boolean {
  const n = plain(name.replace(/\s*\([^)]*\)\s*$/, ""));
  if (!n) return false;
  const t = bareTitle(title);
  return n === t || n === plain(title) || (t.includes(" ") && n === t.split(",")[0]!.trim()) || n === plain(title.split(",")[0]!);
}

/** Words a name is qualified by after it: "Lorenzo Costa the Elder", "… Jr.". */
const AFTER_NAME = /\s*,?\s+(?:the\s+(?:elder|younger|great)|jr\.?|sr\.?)$/i;

/**
 * The ways a page may be titled or a text may write a name: as given; without the title it opens with ("King
 * Henry III of England"); without what follows a comma ("John de Warenne, 6th Earl of Surrey"); without "the
 * Elder"; a numbered ruler without his realm ("Henry III of England" is "Henry III").
 */
export function nameForms(name: string): string[] {
  const out = new Set<string>([name.trim()]);
  for (const form of [...out]) {
    const bare = withoutTitle(form);
    if (bare) out.add(bare);
  }
  for (const form of [...out]) {
    const head = form.split(",")[0]!.trim();
    if (head.includes(" ")) out.add(head);
    const unqualified = form.replace(AFTER_NAME, "");
    if (unqualified !== form && unqualified.includes(" ")) out.add(unqualified);
    const ruler = /^(.+?\s+[IVX]+)\s+of\s+\p{Lu}.*$/u.exec(form);
    if (ruler) out.add(ruler[1]!);
  }
  return [...out].filter((f) => plain(f).length > 2);
}

/** Whether a page's title names the thing `name` names: by one of its forms, or as its last two words or more (its head). */
export function namesPage(name: string, title: string): boolean {
  if (nameForms(name).some((form) => names(form, title))) return true;
  const t = bareTitle(title);
  return t.includes(" ") && ` ${plain(name)}`.endsWith(` ${t}`);
}

/** Sentences cut after "c." or "b." ("Empress Matilda (c. 7 February 1102 – …"), joined again. */
export function joinedAbbreviations(sentences: string[]): string[] {
  const out: string[] = [];
  for (const s of sentences) {
    const last = out.at(-1);
    if (last !== undefined && /(?:^|[\s(])(?:c|ca|b|d|fl|r|St|Jr|Sr|Dr|Mt|a\.k\.a|aka)\.$/.test(last)) out[out.length - 1] = `${last} ${s}`;
    else out.push(s);
  }
  return out;
}

export function pageReader(retrieval: Retrieval, lookup: Lookup): PageReader {
  const pages = [...retrieval.pages];
  const split = new Map<number, string[]>();
  const asked = new Map<string, Promise<RetrievedPage[]>>();
  const add = (p: RetrievedPage) => {
    if (!pages.some((q) => q.pageId === p.pageId)) pages.push(p);
    return pages.find((q) => q.pageId === p.pageId)!;
  };
  const sentences = (page: RetrievedPage) => {
    let s = split.get(page.pageId);
    if (!s) split.set(page.pageId, (s = joinedAbbreviations([...new Set(sentencesOf(page.markdown).map((x) => x.whole))])));
    return s;
  };
  /** Of two pages of one name (namesakes), the one whose text shares most words with the context. */
  const likeliest = (found: RetrievedPage[], context: string) => {
    if (found.length <= 1) return found[0] ?? null;
    const words = new Set(plain(context).split(" ").filter((w) => w.length > 3));
    // Distinct words, of the text as read ("[[jon-long|Jon Long]]" is "Jon Long" once).
    const shared = (p: RetrievedPage) => new Set(plain(p.markdown.replace(/\[\[[^|\]]*\|([^\]]*)\]\]/g, "$1")).split(" ").filter((w) => words.has(w))).size;
    // Of equals, the page titled by the name alone: "Jon Long" before "Jon Long (footballer)".
    const qualified = (p: RetrievedPage) => (/\)\s*$/.test(p.title) ? 1 : 0);
    return [...found].sort((a, b) => shared(b) - shared(a) || qualified(a) - qualified(b))[0]!;
  };
  return {
    pages,
    async byName(name, context = "") {
      const known = pages.filter((p) => names(name, p.title) || (withoutTitle(name) !== null && names(withoutTitle(name)!, p.title)));
      const key = plain(name);
      if (!key) return null;
      // A page is often titled without the title the name opens with ("Sultan Murad II" of the page "Murad II").
      const bare = withoutTitle(name);
      const titled = (p: RetrievedPage) => names(name, p.title) || (bare !== null && names(bare, p.title));
      if (!asked.has(key)) asked.set(key, lookup(name).then((r) => r.pages.filter(titled)).catch(() => []));
      const fetched = await asked.get(key)!;
      const all = [...known, ...fetched.filter((f) => !known.some((k) => k.pageId === f.pageId))];
      const pick = likeliest(all, context);
      return pick ? add(pick) : null;
    },
    async pagesOf(name, context = "") {
      const forms = nameForms(name);
      const titled = (p: RetrievedPage) => namesPage(name, p.title);
      const found: RetrievedPage[] = pages.filter(titled);
      for (const form of forms) {
        const key = `pages of ${plain(form)}`;
        if (!asked.has(key)) asked.set(key, lookup(form).then((r) => r.pages).catch(() => []));
        for (const p of (await asked.get(key)!).filter(titled)) if (!found.some((f) => f.pageId === p.pageId)) found.push(p);
      }
      const first = likeliest(found, context);
      return [first, ...found.filter((p) => p !== first)].filter((p): p is RetrievedPage => p !== null).map(add);
    },
    titledIn(text) {
      const t = ` ${plain(text)} `;
      const found = pages.filter((p) => bareTitle(p.title).length > 2 && t.includes(` ${bareTitle(p.title)} `));
      // A title the text writes as a name (with a capital) before one it writes as common words: "the PLACE OF
      // BIRTH of the director of Kiss the Sky" names the film, not a page titled "Place of birth".
      const named = new Set(found.filter((p) => writesAsName(text, bareTitle(p.title))).map((p) => p.pageId));
      return found.sort((a, b) => Number(named.has(b.pageId)) - Number(named.has(a.pageId)) || bareTitle(b.title).length - bareTitle(a.title).length);
    },
    sentences,
    async search(query) {
      // A walk that backtracks asks again what it asked before.
      const key = `search ${query}`;
      if (!asked.has(key)) asked.set(key, lookup(query).then((r) => r.pages).catch(() => []));
      return (await asked.get(key)!).map(add);
    },
  };
}
