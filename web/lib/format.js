// Formatting: dates, sizes, counts, elapsed time and USDC amounts (exact, no floating point).
export const fmtDate = (iso) => {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
};
export const fmtBytes = (n) => {
  if (typeof n !== "number") return "";
  const units = ["B", "KB", "MB", "GB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) (n /= 1024), i++;
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
};
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
export const USDC_DECIMALS = 6;
/** "0.01" USDC → "10000" atomic units, exactly (no floating point); null when not a positive amount. */
export function toAtomic(amount) {
  const m = String(amount).trim().match(/^(\d*)(?:\.(\d*))?$/);
  if (!m || (!m[1] && !m[2]) || (m[2] ?? "").length > USDC_DECIMALS) return null;
  const atomic = `${m[1] || "0"}${(m[2] ?? "").padEnd(USDC_DECIMALS, "0")}`.replace(/^0+/, "");
  return atomic || null;
}
export const fromAtomic = (atomic) => {
  const s = String(atomic).padStart(USDC_DECIMALS + 1, "0");
  return `${s.slice(0, -USDC_DECIMALS)}.${s.slice(-USDC_DECIMALS)}`.replace(/\.?0+$/, "");
};

export const jsonOr = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
export const safeDecode = (s) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
/** "42 s", "3 min 5 s", "2 h 4 min": how long something has been going on. */
export function fmtElapsed(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
