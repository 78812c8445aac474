// A whole-number query parameter (`limit`, `depth`, `offset`), parsed by hand: Elysia's numeric query types
// let 1.5 through and report a range error without the parameter's name ("property: …").
import { invalid } from "./errors";

/** `raw` as a whole number from `min` to `max`, undefined when absent, else a 422 naming `field`. */
export function wholeNumber(field: string, raw: string | number | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const n = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= max)) throw invalid(field, `${field} must be a whole number from ${min} to ${max}`);
  return n;
}
