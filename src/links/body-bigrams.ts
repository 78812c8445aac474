// Could any page of a brain, outside one source, name a title? A page names a title when the title's words
// stand in its body one after the other, so every pair of neighbouring title words is a pair of neighbouring
// body words. This counts, per brain, the source pages holding each word pair (a count-min sketch: never less
// than the true count), and takes away the source's own pages: a pair no other page holds rules the title out.
// An inward link's full-text search (inward-links.ts) was the fastest-growing read of an import (0.31 → 0.68
// ms a source from 5k to 45k sources) and found nothing for almost every title; ruling a title out costs a
// few array reads. Like TitleIndex, it reads only the pages added since its last look (ids are AUTOINCREMENT).
// Words are read as the link check reads them (linkableBody, case folded as a case-insensitive pattern
// matches), so a page the check would accept is never ruled out.
import type { ReadRows } from "../db/read-rows";
import { keepRecent } from "../lib/recent-map";
import { linkableBody } from "./wiki-links";

const WORD = /[\p{L}\p{N}_]+/gu;
/** Brains kept (a sketch is 2 rows of 2-bit counters, about one a pair counted: ~8 MB at 50k abstracts, 32 MB at most). */
const MAX_BRAINS = 4;
const MIN_WIDTH = 1 << 16;
/**
 * 2 × 16 MiB of counters: ~60M pairs (a 250k-source brain of abstracts). Past it the counters fill up and more
 * titles go on to the full-text search: slower, never wrong.
 */
const MAX_WIDTH = 1 << 26;
/** Counters a row per pair counted, at least (a sketch past it is rebuilt twice as wide). */
const WIDTH_PER_PAIR = 1;
/** Pairs a source is assumed to hold when a sketch is sized before any page is read (a 200-word abstract: ~190). */
const PAIRS_PER_SOURCE_GUESS = 256;
/** Page rows read per query. */
const READ_PAGE = 2000;
/** A 2-bit counter's top: "three or more" (saturated: counted as many). */
const SATURATED = 3;
/**
 * Sources whose counted pages' pairs are kept (their own pages are taken away right after they are counted:
 * kept, they are neither read nor split into pairs again), and the pairs kept at most a brain (~6 MB): the
 * least recent sources go first, and a source whose pages alone hold half of them is read again instead.
 */
const RECENT_SOURCES = 256;
const KEPT_PAIRS = 200_000;

/**
 * Hashes of a text's distinct neighbouring word pairs. Upper-cased: a case-insensitive pattern matches two
 * letters when their upper cases are equal (σ and ς, µ and μ), which lower-casing would keep apart.
 */
function pairHashes(text: string): Set<number> {
  const words = text.toUpperCase().match(WORD) ?? [];
  const hashes = new Set<number>();
  let previous = words.length ? wordHash(words[0]!) : 0;
  for (let i = 1; i < words.length; i++) {
    const next = wordHash(words[i]!);
    hashes.add(Math.imul(previous ^ Math.imul(next, 0x9e3779b1), 0x85ebca6b) ^ (next >>> 13));
    previous = next;
  }
  return hashes;
}

/** FNV-1a of a word. */
function wordHash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h;
}

/** Two rows of 2-bit counters, four to a byte. A pair's count is the smaller of its two counters. */
class Sketch {
  private readonly first: Uint8Array;
  private readonly second: Uint8Array;
  private readonly mask: number;
  added = 0;
  constructor(readonly width: number) {
    this.first = new Uint8Array(width / 4);
    this.second = new Uint8Array(width / 4);
    this.mask = width - 1;
  }

  add(hashes: Set<number>) {
    for (const hash of hashes) {
      bump(this.first, hash & this.mask);
      bump(this.second, secondPosition(hash) & this.mask);
    }
    this.added += hashes.size;
  }

  count(hash: number): number {
    const n = Math.min(counter(this.first, hash & this.mask), counter(this.second, secondPosition(hash) & this.mask));
    return n === SATURATED ? Infinity : n;
  }
}

const secondPosition = (hash: number) => Math.imul(hash ^ (hash >>> 16), 0x2c1b3c6d) ^ (hash >>> 11);
const counter = (row: Uint8Array, at: number) => (row[at >> 2]! >> ((at & 3) * 2)) & 3;
function bump(row: Uint8Array, at: number) {
  if (counter(row, at) < SATURATED) row[at >> 2] = row[at >> 2]! + (1 << ((at & 3) * 2));
}

const widthFor = (pairs: number) => {
  let width = MIN_WIDTH;
  while (width < pairs * WIDTH_PER_PAIR && width < MAX_WIDTH) width *= 2;
  return width;
};

/** Per source last counted, the pairs of each of its pages a sketch counted, within a budget of pairs. */
class KeptPairs {
  /** null: the source's pages held too many pairs to keep (read them). */
  private bySource = new Map<string, { pages: Set<number>[]; pairs: number } | null>();
  private pairs = 0;

  constructor(private readonly budget: number) {}

  /** The pairs of each counted page of the source, or undefined when they are not kept. */
  of(sourceId: string): Set<number>[] | undefined {
    return this.bySource.get(sourceId)?.pages;
  }

  /**
   * A page of the source was counted. A source dropped and met again starts a new list, of its later pages
   * only: fewer pairs are taken away then, which never rules a title out wrongly.
   */
  add(sourceId: string, hashes: Set<number>) {
    const entry = this.bySource.has(sourceId) ? this.bySource.get(sourceId)! : { pages: [], pairs: 0 };
    this.bySource.delete(sourceId);
    if (entry) {
      entry.pages.push(hashes);
      entry.pairs += hashes.size;
      this.pairs += hashes.size;
    }
    const tooMany = entry !== null && entry.pairs > this.budget / 2;
    if (tooMany) this.pairs -= entry.pairs;
    this.bySource.set(sourceId, tooMany ? null : entry);
    while (this.pairs > this.budget || this.bySource.size > RECENT_SOURCES) {
      const [oldest, dropped] = this.bySource.entries().next().value!;
      this.bySource.delete(oldest);
      if (dropped) this.pairs -= dropped.pairs;
    }
  }
}

interface BrainPairs {
  lastId: number;
  sketch: Sketch;
  counted: KeptPairs;
}

export class BodyBigrams {
  private brains = new Map<string, BrainPairs>();
  private readonly keptPairs: number;

  /** `keptPairs`: the pairs of recent sources' pages kept a brain (for tests of the budget). */
  constructor(
    private readRows: ReadRows,
    options: { keptPairs?: number } = {},
  ) {
    this.keptPairs = options.keptPairs ?? KEPT_PAIRS;
  }

  /**
   * A test of titles against the brain's source pages outside `sourceId`, as this read sees the database:
   * false only when no such page can name the title (some pair of its words stands in none of them); true
   * for a title of one word. Call it and its test inside one read transaction.
   */
  async outside(brainId: string, sourceId: string): Promise<(title: string) => boolean> {
    const brain = await this.refresh(brainId);
    const ownCount = new Map<number, number>();
    for (const hashes of await this.ownPairs(brain, sourceId)) for (const hash of hashes) ownCount.set(hash, (ownCount.get(hash) ?? 0) + 1);
    return (title) => {
      for (const hash of pairHashes(title)) if (brain.sketch.count(hash) - (ownCount.get(hash) ?? 0) <= 0) return false;
      return true;
    };
  }

  /**
   * The pairs of the source's pages the sketch counted: only those (a page written since would take away pairs
   * it never counted). Kept from the count for a recent source; a page counted then deleted or edited is taken
   * away too, which is right: it names nothing now (an edited page is never linked inward).
   */
  private async ownPairs(brain: BrainPairs, sourceId: string): Promise<Set<number>[]> {
    const kept = brain.counted.of(sourceId);
    if (kept) return kept;
    // Not kept (counted long ago, or a long document): read.
    const own = (await this.readRows("SELECT markdown FROM pages WHERE source_id = ? AND kind = 'source' AND edited = 0 AND id <= ?", [sourceId, brain.lastId])) as {
      markdown: string;
    }[];
    return own.map((page) => pairHashes(linkableBody(page.markdown)));
  }

  private async refresh(brainId: string): Promise<BrainPairs> {
    let brain = this.brains.get(brainId);
    if (!brain) brain = { lastId: 0, sketch: new Sketch(widthFor((await this.sourceCount(brainId)) * PAIRS_PER_SOURCE_GUESS)), counted: new KeptPairs(this.keptPairs) };
    keepRecent(this.brains, brainId, brain, MAX_BRAINS);
    await this.readSince(brainId, brain);
    const { added, width } = brain.sketch;
    if (added > width / WIDTH_PER_PAIR && width < MAX_WIDTH) {
      // Too full to rule much out: counted again, wide enough for twice its pairs or for every source the brain
      // has or awaits (an import posts them first) at the pairs a source had so far, so a growing brain is
      // seldom counted again.
      const perSource = added / Math.max(1, await this.sourceCount(brainId, brain.lastId));
      const rebuilt: BrainPairs = { lastId: 0, sketch: new Sketch(widthFor(Math.max(2 * added, (await this.sourceCount(brainId)) * perSource))), counted: new KeptPairs(this.keptPairs) };
      await this.readSince(brainId, rebuilt);
      this.brains.set(brainId, (brain = rebuilt));
    }
    return brain;
  }

  /** The brain's sources (pending ones too); with `upTo`, those with a page counted so far. */
  private async sourceCount(brainId: string, upTo?: number): Promise<number> {
    const [row] = (await (upTo === undefined
      ? this.readRows("SELECT source_count AS n FROM brains WHERE id = ?", [brainId])
      : this.readRows("SELECT count(DISTINCT source_id) AS n FROM pages WHERE brain_id = ? AND kind = 'source' AND id <= ?", [brainId, upTo]))) as { n: number }[];
    return Number(row?.n ?? 0);
  }

  /** Counts the pages added since `brain.lastId`, READ_PAGE rows a query (bounded memory at a first look). */
  private async readSince(brainId: string, brain: BrainPairs) {
    for (;;) {
      // Every brain's new rows (others' without text): no page slips between reading and remembering how far.
      // Edited pages are never linked inward, and a page never goes back to unedited.
      const rows = (await this.readRows(
        `SELECT id, source_id AS sourceId, CASE WHEN brain_id = ? AND kind = 'source' AND edited = 0 THEN markdown END AS markdown FROM pages WHERE id > ? ORDER BY id LIMIT ${READ_PAGE}`,
        [brainId, brain.lastId],
      )) as { id: number; sourceId: string | null; markdown: string | null }[];
      for (const row of rows) {
        brain.lastId = Math.max(brain.lastId, Number(row.id));
        if (row.markdown === null) continue;
        const hashes = pairHashes(linkableBody(row.markdown));
        brain.sketch.add(hashes);
        if (row.sourceId !== null) brain.counted.add(row.sourceId, hashes);
      }
      if (rows.length < READ_PAGE) return;
    }
  }
}
