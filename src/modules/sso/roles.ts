// The claim → role mapping: values of one claim (a `groups` list, say) that make a person a server admin.
// The role is also kept on the person's identity row, for the teams feature to read.
import type { SsoProvider } from "./providers";

export type SsoRole = "admin" | "member";

/** `admin` or `member` when a mapping is configured; null when the provider grants no role here. */
export function roleFromClaims(provider: SsoProvider, claims: Record<string, unknown>): SsoRole | null {
  if (!provider.adminValues.length) return null;
  const raw = claims[provider.adminClaim];
  const values = Array.isArray(raw) ? raw.map(String) : typeof raw === "string" ? raw.split(/[\s,]+/) : [];
  return values.some((v) => provider.adminValues.includes(v)) ? "admin" : "member";
}
