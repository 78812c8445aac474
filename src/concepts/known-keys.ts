// Which concept slugs might a brain already know? Most of a new source's concepts are named nowhere else (on
// a 20k-source brain of the import bench, 274 of 10,483 keys of 300 new sources were), yet the facts
// (facts.ts) probed four indexes for each: on an extraction thread, whose page cache SQLite empties whenever
// the writer has committed, every probe read its index pages again (0.8 ms a source at 20k, growing).
// This keeps, per brain, a Bloom filter of every slug that could answer a probe: page slugs, concept slugs of
// mention rows, and concepts of lone rows (a superset of `concept_seen`). A slug the filter has never seen
// is named nowhere else and has no page: no probe. The filter reads only the rows added since its last look
// (by rowid, in the caller's read transaction, so nothing commits between that look and the probes).
// Rows deleted stay in the filter (a probe then finds nothing: only a little wasted work). A mention or lone
// row that reuses the rowid of a deleted last row is missed: that source's concept then looks lone, and the
// next merge of lone concepts (lone.ts), which counts in the database, still finds it named twice.
import type { ReadRows } from "../db/read-rows";
import { keepRecent } from "../lib/recent-map";

const MAX_BRAINS = 16;
/** Bits per slug the filter is sized for: about 1% false positives with K hashes. */
const BITS_PER_SLUG = 10;
const K = 7;
/** Slugs a new brain's filter is sized for; past its capacity a filter is rebuilt four times larger. */
const FIRST_CAPACITY = 1 << 14;
/** Rows renumbered by a VACUUM would be missed: the filter is read again from scratch this often. */
const REBUILD_AFTER_MS = 10 * 60_000;
/** Rows read per query: bounds the memory of a first look at a big brain. */
const READ_PAGE = 5000;

/** A Bloom filter of strings: K bit positions from two hashes (Kirsch and Mitzenmacher's double hashing). */
export class StringBloom {
  private readonly bits: Uint32Array;
  private readonly size: number;
  count = 0;

  constructor(readonly capacity: number) {
    this.size = Math.max(64, Math.ceil((capacity * BITS_PER_SLUG) / 32) * 32);
    this.bits = new Uint32Array(this.size / 32);
  }

  add(value: string): void {
    const [h1, h2] = hashes(value);
    for (let i = 0; i < K; i++) {
      const bit = (h1 + Math.imul(i, h2)) >>> 0;
      this.bits[(bit % this.size) >>> 5]! |= 1 << (bit & 31);
    }
    this.count++;
  }

  /** False: never added. True: added, or (rarely) a false positive. */
  has(value: string): boolean {
    const [h1, h2] = hashes(value);
    for (let i = 0; i < K; i++) {
      const bit = (h1 + Math.imul(i, h2)) >>> 0;
      if ((this.bits[(bit % this.size) >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/** Two 32-bit hashes of the string's UTF-16 code units (FNV-1a, and a second multiply-xor one: odd, a step). */
function hashes(value: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return [a >>> 0, (b | 1) >>> 0];
}

interface BrainSlugs {
  filter: StringBloom;
  builtAt: number;
  /** The last rowid read of pages, concept_mentions and concept_lone (every brain's rows). */
  pagesAfter: number;
  mentionsAfter: number;
  loneAfter: number;
}

/** A row's rowid and, for the brain's own rows, what it names (null for other brains' rows). */
type Row = { id: number; value: string | null };

export class KnownConceptSlugs {
  private brains = new Map<string, BrainSlugs>();

  private readonly firstCapacity: number;
  private readonly readPage: number;

  /** `firstCapacity`: slugs a brain's first filter is sized for; `readPage`: rows read per query. */
  constructor(
    private read: ReadRows,
    options: { firstCapacity?: number; readPage?: number } = {},
  ) {
    this.firstCapacity = options.firstCapacity ?? FIRST_CAPACITY;
    this.readPage = options.readPage ?? READ_PAGE;
  }

  /** A test of "might `slug` be a page or a concept named in this brain?", as of the caller's read transaction. */
  async of(brainId: string): Promise<(slug: string) => boolean> {
    let brain = this.brains.get(brainId);
    if (!brain || Date.now() - brain.builtAt > REBUILD_AFTER_MS) brain = this.empty(brain?.filter.capacity ?? this.firstCapacity);
    keepRecent(this.brains, brainId, brain, MAX_BRAINS);
    await this.catchUp(brainId, brain);
    if (brain.filter.count > brain.filter.capacity) {
      brain = this.empty(brain.filter.count * 4);
      this.brains.set(brainId, brain);
      await this.catchUp(brainId, brain);
    }
    const filter = brain.filter;
    return (slug) => filter.has(slug);
  }

  private empty(capacity: number): BrainSlugs {
    return { filter: new StringBloom(capacity), builtAt: Date.now(), pagesAfter: 0, mentionsAfter: 0, loneAfter: 0 };
  }

  /**
   * Adds the slugs of the rows written since the last look, `readPage` rows at a time (a first look at a big
   * brain reads every row). Driven by rowid: other brains' rows are read as null.
   */
  private async catchUp(brainId: string, brain: BrainSlugs) {
    const each = async (sql: string, after: number, add: (value: string) => void): Promise<number> => {
      for (;;) {
        const rows = (await this.read(`${sql} LIMIT ${this.readPage}`, [brainId, after])) as Row[];
        for (const r of rows) if (r.value !== null) add(r.value);
        if (rows.length) after = Number(rows.at(-1)!.id);
        if (rows.length < this.readPage) return after;
      }
    };
    const add = (slug: string) => brain.filter.add(slug);
    brain.pagesAfter = await each("SELECT id, CASE WHEN brain_id = ? THEN slug END AS value FROM pages WHERE id > ? ORDER BY id", brain.pagesAfter, add);
    brain.mentionsAfter = await each(
      "SELECT rowid AS id, CASE WHEN brain_id = ? THEN concept END AS value FROM concept_mentions WHERE rowid > ? ORDER BY rowid",
      brain.mentionsAfter,
      add,
    );
    // A lone row's mentions: [[concept, surface, sentence index, weight], ...] (lone.ts).
    brain.loneAfter = await each(
      "SELECT rowid AS id, CASE WHEN brain_id = ? THEN mentions END AS value FROM concept_lone WHERE rowid > ? ORDER BY rowid",
      brain.loneAfter,
      (mentions) => new Set((JSON.parse(mentions) as [string][]).map((m) => m[0])).forEach(add),
    );
  }
}
