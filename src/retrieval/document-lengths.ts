// Page lengths as FTS5's bm25() reads them (issue 58), so a brain's BM25 normalizes each page's length by the
// brain's average rather than the whole index's. FTS5 keeps them in its shadow tables in its documented file
// format: `%_docsize` holds one varint per column per row (its token counts), and row 1 of `%_data` (the
// "averages" record) holds the row count and each column's total. They are read, never written.
import type { Db } from "../db/client";
import { queryRows } from "../db/plain";
import type { LexicalIndex } from "./brain-statistics";

/** bm25()'s constants in FTS5 (fts5_aux.c): term-frequency saturation and length normalization. */
export const K1 = 1.2;
export const B = 0.75;

/** SQLite's varints (big-endian, seven bits a byte, the ninth byte whole), as FTS5 writes them. */
export function varints(blob: ArrayBuffer | Uint8Array): number[] {
  const bytes = blob instanceof Uint8Array ? blob : new Uint8Array(blob);
  const values: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    let value = 0;
    for (let n = 0; at < bytes.length; n++) {
      const byte = bytes[at++]!;
      if (n === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if (byte < 0x80) break;
    }
    values.push(value);
  }
  return values;
}

const total = (blob: unknown) => (blob ? varints(blob as ArrayBuffer).reduce((a, b) => a + b, 0) : 0);

/** The index's average page length over all its rows (what bm25() divides by). */
export async function indexAverageLength(db: Db, index: LexicalIndex): Promise<number> {
  const [row] = await queryRows<{ block: ArrayBuffer }>(db, `SELECT block FROM ${index}_data WHERE id = 1`);
  if (!row?.block) return 1;
  const [rows = 0, ...columns] = varints(row.block);
  return rows > 0 ? columns.reduce((a, b) => a + b, 0) / rows : 1;
}

/** Each page's length in the index, all columns together (`ids`: a JSON array of page ids). */
export async function pageLengths(db: Db, index: LexicalIndex, ids: string): Promise<Map<number, number>> {
  const rows = await queryRows<{ id: number; sz: ArrayBuffer }>(db, `SELECT id, sz FROM ${index}_docsize WHERE id IN (SELECT value FROM json_each(?))`, ids);
  return new Map(rows.map((r) => [Number(r.id), total(r.sz)]));
}

/** The lengths of all the brains' pages in the index (`inBrains`: their ids as a JSON array). */
export async function brainPageLengths(db: Db, index: LexicalIndex, inBrains: string, kind: string): Promise<Map<number, number>> {
  const rows = await queryRows<{ id: number; sz: ArrayBuffer }>(
    db,
    `SELECT id, sz FROM ${index}_docsize WHERE id IN (SELECT id FROM pages WHERE brain_id IN (SELECT value FROM json_each(?)) AND ${kind})`,
    inBrains,
  );
  return new Map(rows.map((r) => [Number(r.id), total(r.sz)]));
}

export const averageOf = (lengths: Map<number, number>) => (lengths.size > 0 ? [...lengths.values()].reduce((a, b) => a + b, 0) / lengths.size : 1);

/**
 * One term's bm25() score of a page (its IDF times the saturated weighted frequency) with the page's length
 * normalized by another average: the weighted frequency is solved back from the score, since FTS5 gives
 * the score but not the frequency.
 */
export function renormalized(score: number, idf: number, length: number, fromAverage: number, toAverage: number): number {
  if (score <= 0 || idf <= 0) return score;
  const norm = (average: number) => K1 * (1 - B + (B * length) / Math.max(average, 1e-9));
  const saturated = Math.min(score / idf, (K1 + 1) * (1 - 1e-12));
  const frequency = (saturated * norm(fromAverage)) / (K1 + 1 - saturated);
  return (idf * (frequency * (K1 + 1))) / (frequency + norm(toAverage));
}
