// Which pages of a brain might a new page mention by title? A page links to another when the other's title
// occurs in its body as a phrase, so every word of that title is a word of the body. This keeps, per brain,
// each title's words keyed by its rarest word among the titles indexed so far (ties: the longest), and
// reads only the pages added since the last look (rowid order, AUTOINCREMENT): finding candidates costs
// O(body words), whatever the brain's size.
// (An FTS OR query over the body's words ranked every title sharing a word: 22 ms per source at 3k pages,
// 530 ms at 5k, growing with the brain.) Candidates are re-read from the database before use, so a deleted
// or renamed page is never linked by its old title; a renamed page is found by its new title after the
// index's refresh interval. (Keyed by the longest word, titles sharing a long common word, "patients" or
// "analysis", piled into one bucket that every body naming it walked: a cost growing with the brain.)
// Reads go through a plain reader: the main connection, or an extraction thread's read-only one (which keeps
// its own index and looks for new pages before every search).
import type { ReadRows } from "../db/read-rows";
import { keepRecent } from "../lib/recent-map";

const WORD = /[\p{L}\p{N}_]+/gu;
const MAX_BRAINS = 16;
const REBUILD_AFTER_MS = 5 * 60_000;
const MAX_CANDIDATES = 200;
/** Pages written by other processes are seen within this; this process's writes at once (see touch). */
const REFRESH_EVERY_MS = 1000;

interface Entry {
  id: number;
  /** The title's words other than its key. */
  words: string[];
}
interface BrainTitles {
  lastId: number;
  builtAt: number;
  readAt: number;
  byKey: Map<string, Entry[]>;
  /** Titles indexed so far that contain each word. */
  titlesWith: Map<string, number>;
  /** Every entry in page id order, with all its words (candidatesAfter). */
  ordered: { id: number; words: string[] }[];
}

/** The title's rarest word so far (ties: the longest, then the first). */
function keyOf(words: string[], titlesWith: Map<string, number>): string {
  let best = "";
  let bestCount = Infinity;
  for (const w of words) {
    const n = titlesWith.get(w) ?? 0;
    if (n < bestCount || (n === bestCount && w.length > best.length)) [best, bestCount] = [w, n];
  }
  return best;
}

const wordsOf = (body: string) => new Set(body.toLowerCase().match(WORD) ?? []);

/** Ids of the titles (of pages after `after`) whose words all occur in one of `bodies`, through each body's words. */
function walk(brain: BrainTitles, bodies: string[], after: number): Set<number> {
  const ids = new Set<number>();
  for (const body of bodies) {
    const words = wordsOf(body);
    for (const word of words) {
      for (const entry of brain.byKey.get(word) ?? []) {
        if (ids.size < MAX_CANDIDATES && entry.id > after && entry.words.every((w) => words.has(w))) ids.add(entry.id);
      }
    }
  }
  return ids;
}

export class TitleIndex {
  private brains = new Map<string, BrainTitles>();
  /** Bumped when this process writes pages, so the next look reads them. */
  private writes = 0;
  private seenWrites = new Map<string, number>();

  /** This process wrote pages: the next candidates() of every brain reads what is new. */
  touch(): void {
    this.writes++;
  }

  constructor(private read: ReadRows) {}

  private async refresh(brainId: string): Promise<BrainTitles> {
    let brain = this.brains.get(brainId);
    const now = Date.now();
    if (brain && now - brain.readAt < REFRESH_EVERY_MS && this.seenWrites.get(brainId) === this.writes) return brain;
    if (!brain || now - brain.builtAt > REBUILD_AFTER_MS) brain = { lastId: 0, builtAt: now, readAt: now, byKey: new Map(), titlesWith: new Map(), ordered: [] };
    brain.readAt = now;
    this.seenWrites.set(brainId, this.writes);
    keepRecent(this.brains, brainId, brain, MAX_BRAINS);
    // The rowid range since the last look, every brain's rows (others' without a title): one snapshot, so
    // no page can slip between "read this brain's" and "remember how far we read".
    // Concept pages are left out: a source names a concept through inline links (src/concepts), and their
    // short common titles ("steam turbine") matched most bodies, so candidates grew with the brain.
    const rows = (await this.read(`SELECT id, CASE WHEN brain_id = ? AND kind != 'concept' THEN title END AS title FROM pages WHERE id > ? ORDER BY id`, [
      brainId,
      brain.lastId,
    ])) as { id: number; title: string | null }[];
    for (const row of rows) {
      brain.lastId = Math.max(brain.lastId, Number(row.id));
      if (row.title === null) continue;
      const words = [...new Set(row.title.toLowerCase().match(WORD) ?? [])];
      const key = keyOf(words, brain.titlesWith);
      if (!key) continue;
      for (const w of words) brain.titlesWith.set(w, (brain.titlesWith.get(w) ?? 0) + 1);
      brain.ordered.push({ id: Number(row.id), words: [...words] });
      // The other words, longest (rarest) first: most candidates fail on their first check.
      words.splice(words.indexOf(key), 1);
      words.sort((a, b) => b.length - a.length);
      const list = brain.byKey.get(key);
      if (list) list.push({ id: Number(row.id), words });
      else brain.byKey.set(key, [{ id: Number(row.id), words }]);
    }
    return brain;
  }

  /** Pages of the brain (not of `sourceId`) whose title's words all occur in one of `bodies`, as they are now. */
  async candidates(brainId: string, sourceId: string, bodies: string[]): Promise<{ slug: string; title: string }[]> {
    return (await this.candidatesSeen(brainId, sourceId, bodies)).pages;
  }

  /**
   * The same, with `seen`: the last page id whose title was checked (candidatesAfter from there finds the
   * titles written since).
   */
  async candidatesSeen(brainId: string, sourceId: string, bodies: string[]): Promise<{ pages: { slug: string; title: string }[]; seen: number }> {
    const brain = await this.refresh(brainId);
    const seen = brain.lastId; // the walk below is synchronous: it checks exactly the titles up to here
    return { pages: await this.pagesOf(brainId, sourceId, walk(brain, bodies, 0)), seen };
  }

  /**
   * Candidates among the titles of pages after `after` (a page id): the few written since an earlier look are
   * checked one by one; more than MAX_CANDIDATES of them, through the body's words as candidates() does.
   */
  async candidatesAfter(brainId: string, sourceId: string, bodies: string[], after: number): Promise<{ slug: string; title: string }[]> {
    const brain = await this.refresh(brainId);
    let from = brain.ordered.length;
    while (from > 0 && brain.ordered[from - 1]!.id > after && brain.ordered.length - from <= MAX_CANDIDATES) from--;
    if (from === brain.ordered.length) return [];
    if (brain.ordered.length - from > MAX_CANDIDATES) return this.pagesOf(brainId, sourceId, walk(brain, bodies, after));
    const bodyWords = bodies.map(wordsOf);
    const ids = new Set<number>();
    for (const entry of brain.ordered.slice(from)) {
      if (bodyWords.some((words) => entry.words.every((w) => words.has(w)))) ids.add(entry.id);
    }
    return this.pagesOf(brainId, sourceId, ids);
  }

  private async pagesOf(brainId: string, sourceId: string, ids: Set<number>): Promise<{ slug: string; title: string }[]> {
    if (ids.size === 0) return [];
    return (await this.read(`SELECT slug, title FROM pages WHERE id IN (SELECT value FROM json_each(?)) AND +brain_id = ? AND source_id != ?`, [
      JSON.stringify([...ids]),
      brainId,
      sourceId,
    ])) as { slug: string; title: string }[];
  }
}
