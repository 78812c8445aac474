// The pages a shaped answer reads: the retrieved ones, and the page of a name it meets on the way (a bridge's
// next hop, a compared option), found by asking the retriever for that name and keeping a page titled so.
// The ranking is the retriever's; this only reads titles.
import type { Retrieval, RetrievedPage } from "../../../retrieval";
import { sentencesOf } from "../sentences";
import { withoutTitle } from "../words/titles";

export type Lookup = (query: string) => Promise<Retrieval>;

export interface PageReader {
  /** The pages read so far, retrieved first. */
  readonly pages: RetrievedPage[];
  /** The page titled `name` (its title without a bracketed qualifier), or null. */
  byName(name: string, context?: string): Promise<RetrievedPage | null>;
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

/** A title without its bracketed qualifier ("Kanyaka (Film)" is "Kanyaka"). */
export const bareTitle = (title: string) => plain(title.replace(/\s*\([^)]*\)\s*$/, "")) || plain(title);

/** Whether `name` names the page titled `title`: the same, or the title's first part before a comma. */
export function names(name: string, title: string): boolean {
  const n = plain(name.replace(/\s*\([^)]*\)\s*$/, ""));
  if (!n) return false;
  const t = bareTitle(title);
  return n === t || n === plain(title) || (t.includes(" ") && n === t.split(",")[0]!.trim()) || n === plain(title.split(",")[0]!);
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
    titledIn(text) {
      const t = ` ${plain(text)} `;
      return pages.filter((p) => bareTitle(p.title).length > 2 && t.includes(` ${bareTitle(p.title)} `)).sort((a, b) => bareTitle(b.title).length - bareTitle(a.title).length);
    },
    sentences,
    async search(query) {
      const found = await lookup(query).then((r) => r.pages).catch(() => [] as RetrievedPage[]);
      return found.map(add);
    },
  };
}
