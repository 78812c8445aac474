// In-memory vector search per brain and embedding model. Exact SQL (vector_distance_cos) costs ~180 ms at
// 100k pages and libSQL's ANN index lost half the recall (DESIGN.md "Vectors"), so each brain's vectors are
// held as int8 codes plus 1-bit signatures: small brains are scanned exactly (int8), large ones prefiltered
// by Hamming distance on the signatures, then rescored in int8. Measured in scripts/bench-retrieval.ts.
// A snapshot is loaded lazily and replaced when the brain's vector version (bumped by triggers on
// page_vectors, in any process) moves on.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { Logger } from "../lib/log";

export interface VectorSnapshot {
  brainId: string;
  model: string;
  version: number;
  dim: number;
  count: number;
  pageIds: Float64Array;
  /** Row → position, to score given pages (fusion needs the cosine of lexical hits too). */
  rowOf: Map<number, number>;
  /** int8 code per dimension; cosine ≈ Σ code·qcode · scale·qscale. */
  codes: Int8Array;
  scales: Float32Array;
  /** Sign of (v − mean) per dimension, 32 to a word: centring makes the bits informative for anisotropic models. */
  bits: Int32Array;
  words: number;
  mean: Float32Array;
  bytes: number;
}

export interface VectorHit {
  pageId: number;
  cosine: number;
}

/** Up to this many int8 multiply-adds a query, scan every row (about 1 ms here); beyond, prefilter. */
const EXACT_SCAN_BUDGET = 1_000_000;
/** Rows kept by the Hamming prefilter: a share of the brain, never fewer than this. */
const MIN_RESCORE_ROWS = 2_000;
const RESCORE_SHARE = 0.05;
/** Stale snapshots of brains up to this size are reloaded before answering; bigger ones in the background. */
const SYNC_RELOAD_MAX_ROWS = 20_000;
const LOAD_CHUNK_ROWS = 2_000;
const DEFAULT_BUDGET_BYTES = 1024 * 1024 * 1024;

export interface VectorIndex {
  /** The nearest pages of one brain to a unit query vector, best first. */
  search(brainId: string, model: string, query: Float32Array, k: number): Promise<{ hits: VectorHit[]; snapshot: VectorSnapshot | null }>;
  /** Cosine of the query with given pages of a snapshot (pages without a vector are left out). */
  cosines(snapshot: VectorSnapshot, query: Float32Array, pageIds: Iterable<number>): Map<number, number>;
  /** Drop every snapshot (tests, memory pressure). */
  clear(): void;
}

export function createVectorIndex(opts: { db: Db; log: Logger; budgetBytes?: number }): VectorIndex {
  const { db, log } = opts;
  const budget = opts.budgetBytes ?? DEFAULT_BUDGET_BYTES;
  const snapshots = new Map<string, VectorSnapshot>(); // Map order doubles as LRU order
  const loading = new Map<string, Promise<VectorSnapshot>>();

  async function currentVersion(brainId: string, model: string): Promise<number> {
    const [row] = await db.all<{ version: number }>(
      sql`SELECT version FROM page_vector_versions WHERE brain_id = ${brainId} AND model = ${model}`,
    );
    return Number(row?.version ?? 0);
  }

  function load(brainId: string, model: string, version: number): Promise<VectorSnapshot> {
    const key = `${brainId}\u0000${model}`;
    const pending = loading.get(key);
    if (pending) return pending;
    const started = Date.now();
    const promise = loadSnapshot(db, brainId, model, version)
      .then((snap) => {
        snapshots.delete(key);
        snapshots.set(key, snap);
        evict();
        log.debug("vector snapshot loaded", { brainId, model, rows: snap.count, ms: Date.now() - started });
        return snap;
      })
      .finally(() => loading.delete(key));
    loading.set(key, promise);
    return promise;
  }

  function evict() {
    let total = 0;
    for (const s of snapshots.values()) total += s.bytes;
    for (const [key, s] of snapshots) {
      if (total <= budget || snapshots.size === 1) break;
      snapshots.delete(key);
      total -= s.bytes;
    }
  }

  async function snapshotFor(brainId: string, model: string): Promise<VectorSnapshot | null> {
    const key = `${brainId}\u0000${model}`;
    const version = await currentVersion(brainId, model);
    const cached = snapshots.get(key);
    if (cached) {
      snapshots.delete(key); // refresh LRU position
      snapshots.set(key, cached);
    }
    if (cached && cached.version === version) return cached;
    if (version === 0 && !cached) return null; // never had a vector
    if (cached && cached.count > SYNC_RELOAD_MAX_ROWS) {
      // Serve the previous snapshot while the new one loads: pages written since are found lexically.
      load(brainId, model, version).catch((e) => log.error("vector snapshot reload failed", { brainId, error: String(e) }));
      return cached;
    }
    return load(brainId, model, version);
  }

  return {
    async search(brainId, model, query, k) {
      const snapshot = await snapshotFor(brainId, model);
      if (!snapshot || snapshot.count === 0 || snapshot.dim !== query.length) return { hits: [], snapshot: null };
      return { hits: searchSnapshot(snapshot, query, k), snapshot };
    },
    cosines(snapshot, query, pageIds) {
      const q = quantize(query);
      const out = new Map<number, number>();
      for (const id of pageIds) {
        const row = snapshot.rowOf.get(id);
        if (row !== undefined) out.set(id, dotRow(snapshot, row, q));
      }
      return out;
    },
    clear() {
      snapshots.clear();
    },
  };
}

interface QuantizedQuery {
  codes: Int8Array;
  scale: number;
}

function quantize(v: Float32Array): QuantizedQuery {
  let maxAbs = 0;
  for (let j = 0; j < v.length; j++) maxAbs = Math.max(maxAbs, Math.abs(v[j]!));
  const scale = maxAbs / 127 || 1;
  const codes = new Int8Array(v.length);
  for (let j = 0; j < v.length; j++) codes[j] = Math.round(v[j]! / scale);
  return { codes, scale };
}

/** Integer dot product, four lanes a step (Math.imul keeps it in int32: measured 1.4 against 1.8 ms for 5,000 rows of 384). */
function dotRow(s: VectorSnapshot, row: number, q: QuantizedQuery): number {
  const { codes, dim } = s;
  const qc = q.codes;
  const offset = row * dim;
  const whole = dim - (dim % 4);
  let sum = 0;
  let j = 0;
  for (; j < whole; j += 4) {
    const o = offset + j;
    sum = (sum + Math.imul(codes[o]!, qc[j]!) + Math.imul(codes[o + 1]!, qc[j + 1]!) + Math.imul(codes[o + 2]!, qc[j + 2]!) + Math.imul(codes[o + 3]!, qc[j + 3]!)) | 0;
  }
  for (; j < dim; j++) sum = (sum + Math.imul(codes[offset + j]!, qc[j]!)) | 0;
  return sum * s.scales[row]! * q.scale;
}

/** The k nearest rows of a snapshot: an exact int8 scan when small, else the Hamming prefilter then int8 rescoring. */
export function searchSnapshot(s: VectorSnapshot, query: Float32Array, k: number): VectorHit[] {
  const q = quantize(query);
  const rows = s.count * s.dim <= EXACT_SCAN_BUDGET ? allRows(s.count) : hammingCandidates(s, query, rescoreCount(s.count));
  const scores = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) scores[i] = dotRow(s, rows[i]!, q);
  return topK(scores, k).map((i) => ({ pageId: s.pageIds[rows[i]!]!, cosine: scores[i]! }));
}

/** Indexes of the k largest scores, best first: a size-k min-heap instead of sorting every rescored row. */
export function topK(scores: Float64Array, k: number): number[] {
  const heap: number[] = [];
  const less = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  const siftDown = (at: number) => {
    for (;;) {
      const l = 2 * at + 1;
      const r = l + 1;
      let min = at;
      if (l < heap.length && less(heap[l]!, heap[min]!)) min = l;
      if (r < heap.length && less(heap[r]!, heap[min]!)) min = r;
      if (min === at) return;
      [heap[at], heap[min]] = [heap[min]!, heap[at]!];
      at = min;
    }
  };
  for (let i = 0; i < scores.length; i++) {
    if (heap.length < k) {
      heap.push(i);
      for (let at = heap.length - 1; at > 0; ) {
        const parent = (at - 1) >> 1;
        if (!less(heap[at]!, heap[parent]!)) break;
        [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
        at = parent;
      }
    } else if (k > 0 && less(heap[0]!, i)) {
      heap[0] = i;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (less(a, b) ? 1 : less(b, a) ? -1 : 0));
}

const rescoreCount = (count: number) => Math.min(count, Math.max(MIN_RESCORE_ROWS, Math.ceil(count * RESCORE_SHARE)));

function allRows(count: number): Int32Array {
  const rows = new Int32Array(count);
  for (let i = 0; i < count; i++) rows[i] = i;
  return rows;
}

/** The `want` rows with the smallest Hamming distance to the query's signature (counting sort on distance). */
function hammingCandidates(s: VectorSnapshot, query: Float32Array, want: number): Int32Array {
  const { words, bits, count } = s;
  const qbits = signature(query, s.mean, words);
  const distance = new Uint16Array(count);
  const histogram = new Uint32Array(words * 32 + 1);
  for (let row = 0; row < count; row++) {
    let d = 0;
    const offset = row * words;
    for (let w = 0; w < words; w++) {
      const x = bits[offset + w]! ^ qbits[w]!;
      d += BITS_SET[x & 0xffff]! + BITS_SET[x >>> 16]!;
    }
    distance[row] = d;
    histogram[d]!++;
  }
  let cutoff = 0;
  for (let seen = 0; cutoff < histogram.length; cutoff++) {
    seen += histogram[cutoff]!;
    if (seen >= want) break;
  }
  const rows = new Int32Array(want);
  let n = 0;
  for (let row = 0; row < count && n < want; row++) if (distance[row]! < cutoff) rows[n++] = row;
  for (let row = 0; row < count && n < want; row++) if (distance[row] === cutoff) rows[n++] = row;
  return rows.subarray(0, n);
}

/** Bits set in every 16-bit value: two look-ups a word beat the bit-twiddling popcount (1.1 against 1.7 ms for 100k rows of 384 bits). */
const BITS_SET = (() => {
  const table = new Uint8Array(1 << 16);
  for (let i = 1; i < table.length; i++) table[i] = (i & 1) + table[i >> 1]!;
  return table;
})();

function signature(v: ArrayLike<number>, mean: Float32Array, words: number, out: Int32Array = new Int32Array(words), at = 0): Int32Array {
  for (let w = 0; w < words; w++) {
    let x = 0;
    for (let b = 0; b < 32; b++) {
      const j = w * 32 + b;
      if (j < mean.length && v[j]! - mean[j]! > 0) x |= 1 << b;
    }
    out[at + w] = x;
  }
  return out;
}

/** Vectors are stored as float32 blobs (vector32 of JSON text); read in rowid chunks so the loop stays responsive. */
async function loadSnapshot(db: Db, brainId: string, model: string, version: number): Promise<VectorSnapshot> {
  const ids: number[] = [];
  const vectors: Float32Array[] = [];
  let after = -1;
  for (;;) {
    const rows = await db.all<{ rid: number; page_id: number; embedding: ArrayBuffer | Uint8Array }>(sql`
      SELECT rowid AS rid, page_id, embedding FROM page_vectors
      WHERE brain_id = ${brainId} AND model = ${model} AND rowid > ${after} ORDER BY rowid LIMIT ${LOAD_CHUNK_ROWS}`);
    for (const r of rows) {
      ids.push(Number(r.page_id));
      vectors.push(toFloat32(r.embedding));
    }
    if (rows.length < LOAD_CHUNK_ROWS) break;
    after = Number(rows.at(-1)!.rid);
  }
  return buildSnapshot(brainId, model, version, ids, vectors);
}

function toFloat32(blob: ArrayBuffer | Uint8Array): Float32Array {
  const bytes = blob instanceof Uint8Array ? blob : new Uint8Array(blob);
  const dim = Math.floor(bytes.byteLength / 4); // a non-float32 libSQL vector would end with a type byte
  const copy = new Uint8Array(dim * 4);
  copy.set(bytes.subarray(0, dim * 4));
  return new Float32Array(copy.buffer);
}

/** Quantizes unit vectors (all of one dimension; others are skipped) into a snapshot. */
export function buildSnapshot(brainId: string, model: string, version: number, ids: number[], vectors: Float32Array[]): VectorSnapshot {
  const dim = mostCommonLength(vectors);
  const keep = vectors.flatMap((v, i) => (v.length === dim ? [i] : []));
  const count = keep.length;
  const words = Math.ceil(dim / 32);
  const mean = new Float32Array(dim);
  const unit = keep.map((i) => normalized(vectors[i]!));
  for (const v of unit) for (let j = 0; j < dim; j++) mean[j]! += v[j]! / count;
  const snap: VectorSnapshot = {
    brainId,
    model,
    version,
    dim,
    count,
    pageIds: new Float64Array(count),
    rowOf: new Map(),
    codes: new Int8Array(count * dim),
    scales: new Float32Array(count),
    bits: new Int32Array(count * words),
    words,
    mean,
    bytes: count * (dim + words * 4 + 8 + 4 + 48),
  };
  unit.forEach((v, row) => {
    const id = ids[keep[row]!]!;
    snap.pageIds[row] = id;
    snap.rowOf.set(id, row);
    const q = quantize(v);
    snap.codes.set(q.codes, row * dim);
    snap.scales[row] = q.scale;
    signature(v, mean, words, snap.bits, row * words);
  });
  return snap;
}

function normalized(v: Float32Array): Float32Array {
  let norm = 0;
  for (let j = 0; j < v.length; j++) norm += v[j]! * v[j]!;
  norm = Math.sqrt(norm) || 1;
  return Math.abs(norm - 1) < 1e-4 ? v : v.map((x) => x / norm);
}

function mostCommonLength(vectors: Float32Array[]): number {
  const counts = new Map<number, number>();
  for (const v of vectors) counts.set(v.length, (counts.get(v.length) ?? 0) + 1);
  let best = 0;
  let bestCount = -1;
  for (const [len, n] of counts) if (n > bestCount) [best, bestCount] = [len, n];
  return best;
}
