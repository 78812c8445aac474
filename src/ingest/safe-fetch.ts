import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { classifyAddress, classifyHostname, isAllowListed, normalizeHostname, type AllowList } from "./address-policy.ts";
import { IngestError } from "./errors.ts";

/**
 * SSRF-safe GET for link ingestion.
 *
 * Every hop (the first URL and each redirect) is vetted: http/https only, the hostname resolved
 * and refused when ANY of its addresses is not public, unless the host is allow-listed.
 * The connection is then pinned to an address we vetted: the request goes to the IP literal with the
 * original `Host` header and, for https, the original name as TLS SNI and certificate name
 * (`tls.serverName`). So a DNS answer that changes between check and connect (rebinding) is not
 * followed. Proxies from the environment are ignored on purpose: a proxy would resolve names itself.
 */
export type Resolver = (hostname: string) => Promise<string[]>;

export type SafeFetchOptions = {
  allowHosts: AllowList;
  timeoutMs?: number; // whole operation: DNS, every hop, body
  maxBytes?: number; // decoded body size
  maxRedirects?: number;
  accept?: string;
  userAgent?: string;
  /** Replaces node:dns lookup (tests, or a custom resolver). */
  resolve?: Resolver;
  /** PEM CA bundle replacing the system roots (an intranet wiki behind a private CA). */
  ca?: string;
  /** Extra request headers (credentials, conditional GET); sent to the first URL's origin only, never across a redirect to another. */
  headers?: Record<string, string>;
  /** Answer a 304 Not Modified as a result (empty body) instead of an error: for conditional GETs. */
  allowNotModified?: boolean;
  /** The caller's own stop (a job handed back at shutdown, a run cancelled): aborts the fetch at once. */
  signal?: AbortSignal;
};

export type SafeFetchResult = {
  url: string;
  status: number;
  contentType: string;
  body: Uint8Array;
  /** The validators a later conditional GET sends back. */
  etag?: string;
  lastModified?: string;
};

export const SAFE_FETCH_DEFAULTS = {
  timeoutMs: 20_000,
  maxBytes: 25 * 1024 * 1024,
  maxRedirects: 5,
  accept: "text/html,application/xhtml+xml,application/pdf,text/markdown,text/plain;q=0.9,*/*;q=0.5",
  userAgent: "Brainbox/0.1 (knowledge-base link ingestion)",
} as const;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_ADDRESSES_TRIED = 4;

export async function safeFetch(url: string, opts: SafeFetchOptions): Promise<SafeFetchResult> {
  const timeoutMs = opts.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  try {
    return await fetchFollowingRedirects(url, opts, signal);
  } catch (error) {
    if (opts.signal?.aborted) throw opts.signal.reason; // the caller stopped: not the page's fault
    if (error instanceof IngestError) throw error;
    if (signal.aborted) throw new IngestError("timeout", `fetching ${url} took longer than ${timeoutMs} ms`, { url });
    throw new IngestError("connection_failed", `could not fetch ${url}: ${describe(error)}`, { url, cause: error });
  }
}

async function fetchFollowingRedirects(url: string, opts: SafeFetchOptions, signal: AbortSignal): Promise<SafeFetchResult> {
  const maxRedirects = opts.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
  let current = parseHttpUrl(url);
  const origin = current.origin;
  for (let redirects = 0; ; redirects++) {
    const addresses = await vetDestination(current, opts, signal);
    const response = await connectPinned(current, addresses, current.origin === origin ? opts : { ...opts, headers: undefined }, signal);
    if (REDIRECT_STATUSES.has(response.status)) {
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (!location) throw httpStatusError(current, response.status, "redirect without a Location header");
      if (redirects >= maxRedirects) {
        throw new IngestError("too_many_redirects", `more than ${maxRedirects} redirects starting at ${url}`, { url });
      }
      current = parseHttpUrl(location, current); // relative to the logical URL, not the pinned IP
      continue;
    }
    const validators = { etag: response.headers.get("etag") ?? undefined, lastModified: response.headers.get("last-modified") ?? undefined };
    if (response.status === 304 && opts.allowNotModified) {
      await response.body?.cancel();
      return { url: current.href, status: 304, contentType: response.headers.get("content-type") ?? "", body: new Uint8Array(0), ...validators };
    }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel();
      throw httpStatusError(current, response.status);
    }
    const maxBytes = opts.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
    const body = await readCapped(response, maxBytes, current.href);
    return { url: current.href, status: response.status, contentType: response.headers.get("content-type") ?? "", body, ...validators };
  }
}

export function parseHttpUrl(text: string, base?: URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(text, base);
  } catch {
    throw new IngestError("url_invalid", `not a valid URL: ${JSON.stringify(text)}`, { url: text });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new IngestError("url_invalid", `only http and https links can be fetched, not ${parsed.protocol}`, { url: parsed.href });
  }
  parsed.hash = "";
  return parsed;
}

/** The addresses this hop may connect to, or a refusal. Allow-listed hosts skip the checks, not the pinning. */
export async function vetDestination(url: URL, opts: SafeFetchOptions, signal: AbortSignal): Promise<string[]> {
  const hostname = normalizeHostname(url.hostname);
  const allowed = isAllowListed(opts.allowHosts, hostname, effectivePort(url));
  const verdict = classifyHostname(hostname); // IP literals and special names, decided without DNS
  if (verdict?.kind === "blocked" && !allowed) throw blockedError(url, hostname, verdict.reason);
  if (isIP(hostname)) return [hostname];
  const addresses = await resolveAll(hostname, opts.resolve, signal, url);
  if (!allowed) {
    for (const address of addresses) {
      const result = classifyAddress(address);
      if (result.kind === "blocked") throw blockedError(url, `${hostname} (${address})`, result.reason);
    }
  }
  return addresses;
}

async function resolveAll(hostname: string, resolver: Resolver | undefined, signal: AbortSignal, url: URL): Promise<string[]> {
  const resolve = resolver ?? (async (name: string) => (await lookup(name, { all: true, verbatim: true })).map((a) => a.address));
  let addresses: string[];
  try {
    addresses = await abortable(resolve(hostname), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new IngestError("dns_failed", `could not resolve ${hostname}: ${describe(error)}`, { url: url.href, cause: error });
  }
  const unique = [...new Set(addresses.map((a) => a.replace(/%.*$/, "")))];
  if (unique.length === 0) throw new IngestError("dns_failed", `${hostname} has no addresses`, { url: url.href });
  return unique;
}

/** Tries the vetted addresses in order (like a browser falling back from v6 to v4). */
async function connectPinned(url: URL, addresses: string[], opts: SafeFetchOptions, signal: AbortSignal): Promise<Response> {
  let lastError: unknown;
  for (const address of addresses.slice(0, MAX_ADDRESSES_TRIED)) {
    try {
      return await fetch(pinnedUrl(url, address), requestInit(url, opts, signal));
    } catch (error) {
      if (signal.aborted) throw error;
      lastError = error;
    }
  }
  throw new IngestError("connection_failed", `could not connect to ${url.host}: ${describe(lastError)}`, { url: url.href, cause: lastError });
}

export function pinnedUrl(url: URL, address: string): string {
  const pinned = new URL(url.href);
  pinned.hostname = address.includes(":") ? `[${address}]` : address;
  return pinned.href;
}

function requestInit(url: URL, opts: SafeFetchOptions, signal: AbortSignal): BunFetchRequestInit {
  const isNamedHttps = url.protocol === "https:" && !isIP(normalizeHostname(url.hostname));
  const tls = { ...(isNamedHttps ? { serverName: normalizeHostname(url.hostname) } : {}), ...(opts.ca ? { ca: opts.ca } : {}) };
  return {
    method: "GET",
    redirect: "manual",
    signal,
    proxy: false,
    headers: {
      ...opts.headers,
      host: url.host,
      accept: opts.accept ?? SAFE_FETCH_DEFAULTS.accept,
      "user-agent": opts.userAgent ?? SAFE_FETCH_DEFAULTS.userAgent,
    },
    ...(Object.keys(tls).length > 0 ? { tls } : {}),
  };
}

async function readCapped(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const tooLarge = () => new IngestError("too_large", `${url} is larger than ${maxBytes} bytes`, { url });
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > maxBytes && !response.headers.get("content-encoding")) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

function blockedError(url: URL, what: string, reason: string): IngestError {
  return new IngestError(
    "address_blocked",
    `refusing to fetch ${url.href}: ${what} is ${reason}; allow it with BRAINBOX_FETCH_ALLOW_HOSTS if intended`,
    { url: url.href },
  );
}

function httpStatusError(url: URL, status: number, detail?: string): IngestError {
  return new IngestError("http_status", `${url.href} answered HTTP ${status}${detail ? ` (${detail})` : ""}`, { url: url.href, status });
}

export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
