// isomorphic-git's HTTP client, held to the link rules: every hop's host is resolved and refused when any of
// its addresses is private (unless BRAINBOX_FETCH_ALLOW_HOSTS lists it), the connection is pinned to the
// address vetted (no DNS rebinding), redirects are vetted too, credentials never cross to another origin,
// and a response larger than the cap is cut off. Git's smart HTTP posts, so safeFetch (GET only) cannot serve.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { GitHttpRequest, GitHttpResponse, HttpClient } from "isomorphic-git";
import { classifyAddress, classifyHostname, isAllowListed, normalizeHostname, type AllowList } from "../../../../ingest";

export interface GuardOptions {
  allowHosts: AllowList;
  /** Most bytes one response may carry (a pack). */
  maxBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
}

export class GitAddressError extends Error {}

const portOf = (url: URL) => (url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80);

/** The addresses a URL may be reached at, or a GitAddressError saying why not. */
export async function vetGitUrl(url: URL, allowHosts: AllowList): Promise<string[]> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new GitAddressError(`only http and https repositories can be fetched, not ${url.protocol}`);
  const host = normalizeHostname(url.hostname);
  const allowed = isAllowListed(allowHosts, host, portOf(url));
  const verdict = classifyHostname(host);
  const refuse = (what: string, reason: string) =>
    new GitAddressError(`refusing to fetch ${url.origin}: ${what} is ${reason}; allow it with BRAINBOX_FETCH_ALLOW_HOSTS if intended`);
  if (verdict?.kind === "blocked" && !allowed) throw refuse(host, verdict.reason);
  if (isIP(host)) return [host];
  const addresses = [...new Set((await lookup(host, { all: true, verbatim: true })).map((a) => a.address))];
  if (addresses.length === 0) throw new GitAddressError(`${host} has no addresses`);
  if (!allowed)
    for (const a of addresses) {
      const c = classifyAddress(a);
      if (c.kind === "blocked") throw refuse(`${host} (${a})`, c.reason);
    }
  return addresses;
}

async function collect(body: AsyncIterableIterator<Uint8Array> | undefined): Promise<Uint8Array | undefined> {
  if (!body) return undefined;
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

async function* capped(body: ReadableStream<Uint8Array> | null, maxBytes: number, url: string): AsyncIterableIterator<Uint8Array> {
  if (!body) return;
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) return;
    total += chunk.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new Error(`${url} sent more than ${maxBytes} bytes`);
    }
    yield chunk;
  }
}

function headersOf(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((value, key) => (out[key] = value));
  return out;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function guardedGitHttp(opts: GuardOptions): HttpClient {
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      const method = req.method ?? "GET";
      const body = await collect(req.body);
      const first = new URL(req.url);
      let current = first;
      for (let hop = 0; hop <= 5; hop++) {
        const [address] = await vetGitUrl(current, opts.allowHosts);
        const pinned = new URL(current.href);
        pinned.hostname = address!.includes(":") ? `[${address}]` : address!;
        const named = current.protocol === "https:" && !isIP(normalizeHostname(current.hostname));
        // Credentials go to the repository's origin only, never across a redirect to another.
        const headers = current.origin === first.origin ? { ...req.headers } : Object.fromEntries(Object.entries(req.headers ?? {}).filter(([k]) => k.toLowerCase() !== "authorization"));
        const res = await fetch(pinned.href, {
          method,
          headers: { ...headers, host: current.host, "user-agent": "Brainbox/0.1 (git connector)" },
          ...(body ? { body } : {}),
          redirect: "manual",
          proxy: false,
          signal: AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]),
          ...(named ? { tls: { serverName: normalizeHostname(current.hostname) } } : {}),
        } as BunFetchRequestInit);
        if (REDIRECTS.has(res.status) && res.headers.get("location")) {
          await res.body?.cancel();
          current = new URL(res.headers.get("location")!, current);
          continue;
        }
        return {
          url: current.href,
          method,
          statusCode: res.status,
          statusMessage: res.statusText,
          headers: headersOf(res.headers),
          body: capped(res.body, opts.maxBytes, current.origin),
        };
      }
      throw new Error(`more than 5 redirects starting at ${first.origin}`);
    },
  };
}
