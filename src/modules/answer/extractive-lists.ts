// The extractive answer's lists: a procedure's numbered steps, a list under a heading naming what is asked,
// a table's column of the things asked to be listed (or those without something). extractive.ts picks them.
import type { RetrievedPage } from "../../retrieval";
import type { Evidence, ScoredSentence } from "./evidence";
import { stemSet } from "./sentences";

/** Steps of a procedure quoted at most, and their length. */
const MAX_STEPS = 12;
const MAX_STEPS_CHARS = 1500;
/** A further sentence must score at least this share of the best one to be worth reading. */
export const RELATIVE_FLOOR = 0.8;

/**
 * A question answered by a list: "how do I …" by a numbered one (a runbook's steps), "what are the risks …"
 * by the one under a heading naming them. The list whole, in order, when one of its items (`fits`) is among
 * the sentences worth reading. One item alone is half a procedure.
 */
export function wholeList(evidence: Evidence, best: ScoredSentence, fits: (item: ScoredSentence) => boolean): ScoredSentence[] | null {
  const item = evidence.sentences.find((s) => s.score >= best.score * RELATIVE_FLOOR && s.list && fits(s));
  if (!item) return null;
  const steps = evidence.sentences
    .filter((s) => s.page === item.page && s.list?.id === item.list!.id)
    .sort((a, b) => a.index - b.index)
    .filter((s, i, all) => i === 0 || s.whole !== all[i - 1]!.whole) // an overlong item's pieces: quoted once, whole
    .slice(0, MAX_STEPS);
  let chars = 0;
  const fitting = steps.filter((s) => (chars += s.whole.length) <= MAX_STEPS_CHARS);
  return fitting.length >= 2 ? fitting : null;
}

/**
 * The column of a table that names the things a question asks to have listed (its header says them: "Carrier"
 * for "which carriers …"), when one of its rows is among the sentences worth reading and no row is singled
 * out by the question's words (every row holds as much of it): the question asks for them all. "Which hosts
 * run Proxmox?" is answered by the rows that say Proxmox, not by every host. "How many …" counts the rows
 * singled out, when some are ("How many days does Aisha work?" of a rota: the days of her rows).
 */
export function tableColumn(evidence: Evidence, best: ScoredSentence, listed: string): { page: RetrievedPage; values: string[] } | null {
  const table = listedTable(evidence, best, listed);
  if (!table) return null;
  let { rows } = table;
  if (rows.some((r) => r.ownCoverage !== table.row.ownCoverage)) {
    // "How many days does Aisha work?": the rows the question's other words single out are the ones counted.
    if (!evidence.counting) return null;
    const most = Math.max(...rows.map((r) => r.ownCoverage));
    rows = rows.filter((r) => r.ownCoverage === most);
  }
  const values = table.valuesOf(rows);
  if (evidence.counting && values.length === 1) return { page: table.row.page, values };
  return values.length >= 2 ? { page: table.row.page, values } : null;
}

/**
 * The things of a table's listed column whose rows never say `without` (a stem), when some of its rows do: the
 * table is about it. "Which dishes are gluten-free?" of `| Dish | Contains |` is the dishes whose row lacks gluten.
 */
export function rowsWithout(evidence: Evidence, best: ScoredSentence, listed: string, without: string): { page: RetrievedPage; values: string[] } | null {
  const table = listedTable(evidence, best, listed);
  if (!table) return null;
  const kept = table.rows.filter((r) => !r.table!.cells.some((cell) => stemSet(cell).has(without)));
  if (kept.length === 0 || kept.length === table.rows.length) return null;
  return { page: table.row.page, values: table.valuesOf(kept) };
}

/**
 * The table a header of which names the listed things, when one of its rows is among the sentences worth
 * reading: that row, all its rows in order, and how to read a set of rows' listed cells (distinct, non-empty).
 */
function listedTable(evidence: Evidence, best: ScoredSentence, listed: string) {
  const namesListed = (header: string) => stemSet(header).has(listed);
  const row = evidence.sentences.find((s) => s.score >= best.score * RELATIVE_FLOOR && s.table?.headers.some(namesListed));
  if (!row) return null;
  const rows = evidence.sentences.filter((s) => s.page === row.page && s.table?.id === row.table!.id).sort((a, b) => a.index - b.index);
  const at = row.table!.headers.findIndex(namesListed);
  const valuesOf = (some: ScoredSentence[]) => [...new Set(some.map((r) => r.table!.cells[at]!.trim()).filter((v) => v !== ""))];
  return { row, rows, valuesOf };
}
