// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document; MCP authorization
// 2025-11-25): a client without a registration names itself by an HTTPS URL, and the JSON document at that
// URL is its metadata. The document is fetched with the link fetcher's SSRF rules (public addresses only
// unless BRAINBOX_FETCH_ALLOW_HOSTS says otherwise, every connection pinned), capped in size and time, never
// through a redirect, validated, and cached as the client's row in oauth_clients (so codes and grants refer
// to it like to any client) until it is stale.
import { eq } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { oauthClients } from "../../db/schema";
import { isAllowListed, isIngestError, safeFetch, type AllowList } from "../../ingest";
import { grantTypesOf, urlFieldsOf, type OAuthClient } from "./clients";
import { OAuthError } from "./errors";
import { MAX_REDIRECT_URIS, redirectUriProblem } from "./redirect-uris";

/** A document is used this long before it is fetched again (safeFetch does not expose cache headers). */
export const CLIENT_METADATA_TTL_MS = 10 * 60_000;
/** The draft's advice: metadata documents are small; 5 KiB is plenty and bounds what a stranger makes us read. */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
export const CLIENT_METADATA_TIMEOUT_MS = 5_000;
const MAX_CLIENT_ID_URL = 2000;

export type ClientLookup = { client: OAuthClient } | { problem: string };

/** A client_id that is a URL (a metadata document) rather than a registered `cli_…` id. */
export const isClientIdUrl = (clientId: string) => /^https?:\/\//i.test(clientId);

/**
 * Why `clientId` cannot name a metadata document, or null. HTTPS with a path, no fragment, no credentials,
 * no dot segments, in canonical form (the document must repeat it exactly). Plain http only for a host the
 * operator allow-listed for fetching (BRAINBOX_FETCH_ALLOW_HOSTS: development and tests), never otherwise.
 */
export function clientIdUrlProblem(clientId: string, allowHosts: AllowList): string | null {
  if (clientId.length > MAX_CLIENT_ID_URL) return `a client_id URL must be at most ${MAX_CLIENT_ID_URL} characters`;
  if (!URL.canParse(clientId)) return "the client_id is not a valid URL";
  const url = new URL(clientId);
  if (clientId.includes("#")) return "a client_id URL must not have a fragment";
  if (url.username || url.password) return "a client_id URL must not carry credentials";
  const rawPath = clientId.replace(/^[a-z]+:\/\/[^/?]*/i, "").replace(/[?].*$/, "");
  if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(rawPath)) return "a client_id URL must not have . or .. path segments";
  if (url.pathname === "/" || url.pathname === "") return "a client_id URL must have a path (e.g. https://app.example/oauth/client.json)";
  if (url.href !== clientId) return `the client_id URL must be written in canonical form (${url.href})`;
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && isAllowListed(allowHosts, url.hostname, port)) return null;
  return "a client_id URL must use https";
}

/** Validates a fetched document for `clientId`; returns the row to store, or why it cannot be used. */
export function clientFromDocument(clientId: string, body: Uint8Array): { row: typeof oauthClients.$inferInsert } | { problem: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return { problem: "the client metadata document is not valid JSON" };
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return { problem: "the client metadata document must be a JSON object" };
  const input = doc as Record<string, unknown>;
  if (input.client_id !== clientId) return { problem: "the client metadata document's client_id does not match its URL" };
  if (input.client_secret !== undefined || input.client_secret_expires_at !== undefined)
    return { problem: "a client metadata document must not carry a client secret" };
  const method = input.token_endpoint_auth_method ?? "none";
  if (method !== "none") return { problem: `token_endpoint_auth_method ${String(method)} is not supported for a metadata document client (use none, with PKCE)` };
  const redirectUris = input.redirect_uris;
  if (!Array.isArray(redirectUris) || redirectUris.length === 0 || !redirectUris.every((u) => typeof u === "string"))
    return { problem: "the client metadata document must list redirect_uris" };
  if (redirectUris.length > MAX_REDIRECT_URIS) return { problem: `at most ${MAX_REDIRECT_URIS} redirect_uris` };
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) return { problem: `redirect_uris: ${problem}` };
  }
  let grantTypes: string[];
  let urls: Record<string, unknown>;
  try {
    grantTypes = grantTypesOf(input);
    urls = urlFieldsOf(input);
  } catch (error) {
    if (error instanceof OAuthError) return { problem: error.description };
    throw error;
  }
  const name = typeof input.client_name === "string" && input.client_name.trim() ? input.client_name.trim() : new URL(clientId).host;
  return {
    row: {
      id: clientId,
      secretHash: null,
      authMethod: "none",
      name,
      redirectUris: redirectUris as string[],
      grantTypes,
      metadata: { ...urls, client_id_metadata_document: true, fetched_at: Date.now() },
    },
  };
}

/** Finds clients by id: registered ones in the database, URL ones through their (cached) document. */
export function clientResolver(deps: { db: RootDb; allowHosts: AllowList }) {
  const inFlight = new Map<string, Promise<ClientLookup>>();

  async function fetchDocument(clientId: string): Promise<ClientLookup> {
    let body: Uint8Array;
    try {
      const fetched = await safeFetch(clientId, {
        allowHosts: deps.allowHosts,
        timeoutMs: CLIENT_METADATA_TIMEOUT_MS,
        maxBytes: CLIENT_METADATA_MAX_BYTES,
        maxRedirects: 0,
        accept: "application/json",
        userAgent: "Brainbox (OAuth client metadata)",
      });
      body = fetched.body;
    } catch (error) {
      if (isIngestError(error)) return { problem: `The client metadata document could not be fetched: ${error.message}` };
      throw error;
    }
    const parsed = clientFromDocument(clientId, body);
    if ("problem" in parsed) return { problem: `The client metadata document cannot be used: ${parsed.problem}.` };
    const { id: _id, ...fields } = parsed.row;
    const [client] = await deps.db.insert(oauthClients).values(parsed.row).onConflictDoUpdate({ target: oauthClients.id, set: fields }).returning();
    return { client: client! };
  }

  return async function resolveClient(clientId: string): Promise<ClientLookup> {
    if (!isClientIdUrl(clientId)) {
      const client = clientId.length > 100 ? undefined : await deps.db.query.oauthClients.findFirst({ where: eq(oauthClients.id, clientId) });
      return client ? { client } : { problem: "This application is not registered with this Brainbox (unknown client_id)." };
    }
    const problem = clientIdUrlProblem(clientId, deps.allowHosts);
    if (problem) return { problem: `This client_id cannot be used: ${problem}.` };
    const cached = await deps.db.query.oauthClients.findFirst({ where: eq(oauthClients.id, clientId) });
    const fetchedAt = typeof cached?.metadata.fetched_at === "number" ? cached.metadata.fetched_at : 0;
    if (cached && Date.now() - fetchedAt < CLIENT_METADATA_TTL_MS) return { client: cached };
    let pending = inFlight.get(clientId);
    if (!pending) {
      pending = fetchDocument(clientId).finally(() => inFlight.delete(clientId));
      inFlight.set(clientId, pending);
    }
    return pending;
  };
}

export type ClientResolver = ReturnType<typeof clientResolver>;
