import { isIP } from "node:net";
import type { AllowList } from "./address-policy.ts";
import { IngestError } from "./errors.ts";
import { describe, parseHttpUrl, pinnedUrl, vetDestination, type Resolver } from "./safe-fetch.ts";
import { normalizeHostname } from "./address-policy.ts";

/**
 * SSRF-safe POST for webhooks out: the same rules as link fetching (safe-fetch.ts: http/https only, every
 * address vetted unless allow-listed, the connection pinned to a vetted address), but a redirect is never
 * followed (a receiver that moved says so in its answer, and a 3xx to an internal address cannot turn a
 * hook into a probe), and the answer's body is read only up to a bound, then dropped: the status decides.
 */
export type SafePostOptions = {
  allowHosts: AllowList;
  body: string;
  headers: Record<string, string>;
  /** The whole attempt: DNS, connection, the answer's headers and the bounded read of its body. */
  timeoutMs: number;
  /** Bytes of the answer's body read (and kept) at most; the rest is never read. */
  maxResponseBytes: number;
  resolve?: Resolver;
};

export type SafePostResult = { status: number; location: string | null; body: string; truncated: boolean };

export async function safePost(url: string, opts: SafePostOptions): Promise<SafePostResult> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    const target = parseHttpUrl(url);
    const addresses = await vetDestination(target, { allowHosts: opts.allowHosts, resolve: opts.resolve }, signal);
    const response = await postPinned(target, addresses, opts, signal);
    const { body, truncated } = await readBounded(response, opts.maxResponseBytes);
    return { status: response.status, location: response.headers.get("location"), body, truncated };
  } catch (error) {
    if (signal.aborted) throw new IngestError("timeout", `no answer from ${url} within ${opts.timeoutMs} ms`, { url });
    if (error instanceof IngestError) throw error;
    throw new IngestError("connection_failed", `could not reach ${url}: ${describe(error)}`, { url, cause: error });
  }
}

/** Throws the refusal a delivery would meet (address_blocked, url_invalid, dns_failed); for checking a URL early. */
export async function vetPostTarget(url: string, allowHosts: AllowList, timeoutMs: number, resolve?: Resolver): Promise<URL> {
  const target = parseHttpUrl(url);
  await vetDestination(target, { allowHosts, resolve }, AbortSignal.timeout(timeoutMs));
  return target;
}

async function postPinned(url: URL, addresses: string[], opts: SafePostOptions, signal: AbortSignal): Promise<Response> {
  let lastError: unknown;
  const isNamedHttps = url.protocol === "https:" && !isIP(normalizeHostname(url.hostname));
  for (const address of addresses.slice(0, 4)) {
    try {
      return await fetch(pinnedUrl(url, address), {
        method: "POST",
        redirect: "manual",
        signal,
        proxy: false,
        body: opts.body,
        headers: { ...opts.headers, host: url.host },
        ...(isNamedHttps ? { tls: { serverName: normalizeHostname(url.hostname) } } : {}),
      } as BunFetchRequestInit);
    } catch (error) {
      if (signal.aborted) throw error;
      lastError = error;
    }
  }
  throw new IngestError("connection_failed", `could not connect to ${url.host}: ${describe(lastError)}`, { url: url.href, cause: lastError });
}

/** The first `max` bytes of the body as text; the stream is then cancelled, never drained. */
async function readBounded(response: Response, max: number): Promise<{ body: string; truncated: boolean }> {
  if (!response.body) return { body: "", truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = max - total;
    chunks.push(value.byteLength > room ? value.subarray(0, room) : value);
    total += Math.min(value.byteLength, room);
    if (value.byteLength >= room) {
      truncated = value.byteLength > room;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return { body: new TextDecoder().decode(Buffer.concat(chunks)), truncated };
}
