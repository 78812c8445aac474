// Small checks every kind's config uses; each error names its field as `config.<field>`.
import { invalid } from "../../../lib/errors";
import type { AllowList } from "../../../ingest";
import { checkLinkUrl } from "../../sources/normalize";

const field = (name: string) => `config.${name}`;

export function optionalBool(raw: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const v = raw[name];
  if (v === undefined) return fallback;
  if (typeof v !== "boolean") throw invalid(field(name), `${field(name)} must be true or false`);
  return v;
}

export function optionalInt(raw: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const v = raw[name];
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) throw invalid(field(name), `${field(name)} must be a whole number from ${min} to ${max}`);
  return v;
}

export function stringList(raw: Record<string, unknown>, name: string, max = 100): string[] {
  const v = raw[name];
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || !x.trim())) throw invalid(field(name), `${field(name)} must be a list of non-empty strings`);
  if (v.length > max) throw invalid(field(name), `${field(name)} holds at most ${max} entries`);
  return v.map((x: string) => x.trim());
}

/** An http(s) URL the fetch policy allows (a private address needs BRAINBOX_FETCH_ALLOW_HOSTS). */
export function fetchableUrl(raw: unknown, name: string, allow: AllowList): string {
  if (typeof raw !== "string" || !raw.trim()) throw invalid(field(name), `${field(name)} must be an http or https URL`);
  return checkLinkUrl(raw.trim(), allow, field(name));
}

/** Request headers: names as HTTP allows them, string values (secrets: stored encrypted, never shown). */
export function headerMap(raw: Record<string, unknown>, name = "headers"): Record<string, string> {
  const v = raw[name];
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw invalid(field(name), `${field(name)} must be an object of header names and values`);
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(k) || /^(host|content-length|transfer-encoding|connection)$/i.test(k))
      throw invalid(field(`${name}.${k}`), `${field(name)} cannot set a header named "${k}"`);
    if (typeof value !== "string" || /[\r\n]/.test(value)) throw invalid(field(`${name}.${k}`), `${field(`${name}.${k}`)} must be a one-line string`);
    out[k] = value;
  }
  return out;
}

/** Fails on keys the kind does not know, so a typo is not silently ignored. */
export function onlyKnownKeys(raw: Record<string, unknown>, known: readonly string[]): void {
  for (const k of Object.keys(raw)) if (!known.includes(k)) throw invalid(field(k), `${field(k)} is not a setting of this kind (known: ${known.join(", ")})`);
}
