// What an OAuth access token may do. A connector's token carries the scopes its grant allows; an API key
// (the owner's own credential) carries none and may do everything. Each account-mode plugin names the
// scope its routes need per method (`authGuard(ctx, rule)`); a route with no scope named is owner-only,
// so a new route refuses tokens until someone decides otherwise. Key management, grants, web sessions,
// brain deletion, paid-brain settings and account administration are owner-only: no scope grants them.

export const SCOPES = {
  "brains:read": "Read your brains, brain sets, sources and wiki pages (search, fetch, the link graph)",
  ask: "Ask your brains and brain sets (counted against your plan), get context, read and clear your ask history",
  "sources:write": "Add, re-process and delete sources in your brains",
  "brains:write": "Create brains and brain sets, rename them or change their visibility, edit wiki pages",
  "account:read": "See your plan, usage and payments",
} as const;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

/** What the MCP tools need: named in the /mcp 401 challenge, so hosts ask for exactly this. */
export const MCP_SCOPES: Scope[] = ["brains:read", "ask", "sources:write"];

/** The one scope of grants made before scopes existed: every connector scope (never owner-only routes). */
export const LEGACY_SCOPE = "brainbox";

const isScope = (value: string): value is Scope => Object.hasOwn(SCOPES, value);

/**
 * The scopes an authorization request gets: the known ones it names (narrowed to them), every connector
 * scope for the legacy `brainbox`. A request naming no known scope (none, or only foreign ones such as
 * an MCP host's own) gets every connector scope: unknown scopes are ignored (RFC 6749 §3.3).
 */
export function requestedScopes(raw: string | null): Scope[] {
  const words = (raw ?? "").split(" ").filter(Boolean);
  if (words.includes(LEGACY_SCOPE)) return [...ALL_SCOPES];
  const known = ALL_SCOPES.filter((scope) => words.includes(scope));
  return known.length > 0 ? known : [...ALL_SCOPES];
}

/** The known scopes a scope string names (the legacy one meaning them all); foreign ones are ignored. */
export function knownScopes(raw: string): Scope[] {
  return [...grantedScopes(raw)];
}

/** A grant's stored scope string → its scopes (a legacy grant has them all). */
export function grantedScopes(stored: string): ReadonlySet<Scope> {
  const words = stored.split(" ").filter(Boolean);
  if (words.includes(LEGACY_SCOPE)) return new Set(ALL_SCOPES);
  return new Set(words.filter(isScope));
}

export const formatScopes = (scopes: Iterable<Scope>) => [...scopes].join(" ");

/** What a route needs from a token: a scope, or the owner's own credential. */
export type Requirement = Scope | "owner";
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** A plugin's rule: one requirement for all its routes, or one per method (a method left out is owner-only). */
export type ScopeRule = Requirement | Partial<Record<Method, Requirement>>;

export function requirementOf(rule: ScopeRule, method: string): Requirement {
  if (typeof rule === "string") return rule;
  const verb = (method === "HEAD" ? "GET" : method) as Method;
  return rule[verb] ?? "owner";
}

/** Does this principal's token allow the requirement? Owner credentials (no scopes) always do. */
export function allows(scopes: ReadonlySet<string> | undefined, requirement: Requirement): boolean {
  if (!scopes) return true;
  return requirement !== "owner" && scopes.has(requirement);
}
