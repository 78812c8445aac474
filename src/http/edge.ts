// What every request passes through before and after the app: a request id, CORS, security headers, a
// limit on failed authentication, one structured access-log line and the request metrics.
import type { Logger } from "../lib/log";
import { randomBase62, sha256Hex } from "../lib/secrets";
import { pathOf, pathStart } from "../lib/url-path";
import { failureLimiter } from "./auth-limiter";
import { clientAddress, rememberClientAddress, type Cidr } from "./client-address";
import { errorBody } from "./errors";
import { routeOf, type Metrics } from "./metrics";

export interface EdgeOptions {
  log: Logger;
  metrics: Metrics;
  /** `*` or a list of origins allowed to call the API from a browser (no cookies are used: bearer only). */
  corsOrigins: string[];
  /** Failed authentications per minute, per client address and per presented credential, before 429. */
  authFailuresPerMinute: number;
  /** Peers whose Forwarded / X-Forwarded-For headers name the client (BRAINBOX_TRUSTED_PROXIES). */
  trustedProxies?: Cidr[];
  /** Whether an Authorization value authenticates now: a valid credential is never refused by the limiter. */
  isValidCredential?: (authorization: string) => Promise<boolean>;
}

// Lists, so features can add their headers without touching the code below. x402: the reference wrappers'
// paid retry sends payment-signature (v2) or x-payment (v1) and, oddly, access-control-expose-headers as a
// request header; the payment answers are read from JS.
export const CORS_ALLOW_HEADERS = ["authorization", "content-type", "x-payment", "payment-signature", "access-control-expose-headers", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"];
export const CORS_EXPOSE_HEADERS = ["x-request-id", "x-payment-response", "payment-response", "payment-required", "retry-after", "www-authenticate", "mcp-session-id"];
export const CORS_ALLOW_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

const SECURITY_HEADERS: Array<[string, string]> = [
  ["x-content-type-options", "nosniff"],
  ["referrer-policy", "no-referrer"],
  ["x-frame-options", "DENY"],
  ["cross-origin-opener-policy", "same-origin"],
];

/**
 * Request ids: a random prefix per process and a counter, 16 characters. Unique without drawing random
 * bytes per request (getrandom showed up in profiles under load). The counter runs through the 8-digit
 * base-36 numbers, so it needs no padding (2.7 trillion ids before it starts over).
 */
function requestIds(): () => string {
  const prefix = randomBase62(8);
  const first = 36 ** 7;
  let counter = first;
  return () => {
    if (counter >= 36 ** 8) counter = first;
    return prefix + (counter++).toString(36);
  };
}

/**
 * Elysia reads the path of `request.url` from its twelfth character on (it takes "http://" and a host of at
 * least three characters for granted), so with `Host: x` it routed `/abc/metrics` as `/metrics`. A request
 * whose URL has a shorter origin, or none (Bun's URL when the Host is no valid host), is handed on under a
 * fixed origin, its path and query untouched; the Host header itself stays as sent.
 */
const ROUTING_ORIGIN = "http://host.invalid";
const ELYSIA_PATH_FROM = 11;

export function routableRequest(request: Request): Request {
  const start = pathStart(request.url);
  if (start >= ELYSIA_PATH_FROM) return request;
  const target = start < 0 ? "/" : request.url.slice(start);
  return new Request(ROUTING_ORIGIN + target, request);
}

export function withEdge(handle: (req: Request) => Promise<Response> | Response, opts: EdgeOptions) {
  const limiter = failureLimiter(opts.authFailuresPerMinute);
  const trusted = opts.trustedProxies ?? [];
  const allowAll = opts.corsOrigins.includes("*");
  const preflightHeaders = {
    "access-control-allow-methods": CORS_ALLOW_METHODS.join(", "),
    "access-control-allow-headers": CORS_ALLOW_HEADERS.join(", "),
    "access-control-expose-headers": CORS_EXPOSE_HEADERS.join(", "),
    "access-control-max-age": "600",
  };
  const exposeHeaders = preflightHeaders["access-control-expose-headers"];
  // Bearer values are kept in the limiter only as hashes.
  const credentialKey = (authorization: string) => `credential:${sha256Hex(authorization.trim())}`;

  /** Seconds a request with these credentials must wait, 0 when it may pass (always 0 for a valid one). */
  async function authWait(address: string, authorization: string): Promise<number> {
    const wait = Math.max(limiter.blockedFor(`address:${address}`), limiter.blockedFor(credentialKey(authorization)));
    if (wait === 0) return 0;
    return (await opts.isValidCredential?.(authorization)) ? 0 : wait;
  }

  const nextRequestId = requestIds();

  // Metric series per method and route, with their labels bound once (rendering label sets per request
  // showed in profiles); a flood of distinct routes (404s) starts the memory over.
  type Series = {
    duration: ReturnType<Metrics["histogram"]>;
    byStatus: Map<number, ReturnType<Metrics["counter"]>>;
    /** `"method":...,"route":...` of the access-log line, escaped once. */
    logMembers: string;
  };
  const series = new Map<string, Series>();
  const seriesOf = (method: string, route: string): Series => {
    const id = `${method} ${route}`;
    let s = series.get(id);
    if (!s) {
      if (series.size >= 10_000) series.clear();
      s = {
        duration: opts.metrics.histogram("http_request_duration_seconds", { method, route }),
        byStatus: new Map(),
        logMembers: `"method":${JSON.stringify(method)},"route":${JSON.stringify(route)}`,
      };
      series.set(id, s);
    }
    return s;
  };
  const count = (s: Series, method: string, route: string, status: number) => {
    let c = s.byStatus.get(status);
    if (!c) s.byStatus.set(status, (c = opts.metrics.counter("http_requests_total", { method, route, status: String(status) })));
    c.inc();
  };

  /** `peer` is the TCP peer's address, or a function giving it (only read when the limiter needs it). */
  return async (sent: Request, peer: string | (() => string)): Promise<Response> => {
    const started = performance.now();
    const request = routableRequest(sent);
    const method = request.method;
    const sentId = request.headers.get("x-request-id");
    const requestId = (sentId && sentId.slice(0, 64).replace(/[^\w.-]/g, "")) || nextRequestId();
    const route = routeOf(pathOf(request.url));
    const origin = request.headers.get("origin");
    const corsOrigin = origin && (allowAll || opts.corsOrigins.includes(origin)) ? (allowAll ? "*" : origin) : null;
    const authorization = request.headers.get("authorization");
    let address: string | undefined;
    const addressOf = () => (address ??= clientAddress(typeof peer === "string" ? peer : peer(), request.headers, trusted));
    rememberClientAddress(request, addressOf);

    let response: Response;
    // Nothing failed lately (the usual case): no address, no hashing, no await.
    const wait = authorization === null || limiter.idle ? 0 : await authWait(addressOf(), authorization);
    if (method === "OPTIONS" && request.headers.has("access-control-request-method")) {
      response = new Response(null, { status: 204, headers: corsOrigin ? preflightHeaders : {} });
    } else if (wait > 0) {
      response = Response.json(errorBody("rate_limited", `Too many failed authentications; retry in ${wait} s`), {
        status: 429,
        headers: { "retry-after": String(wait) },
      });
    } else {
      try {
        response = await handle(request);
      } catch (e) {
        opts.log.error("request failed outside the app", { requestId, error: String(e) });
        response = Response.json(errorBody("internal", "Internal server error"), { status: 500 });
      }
      if (response.status === 401 && authorization !== null) {
        limiter.record(`address:${addressOf()}`);
        limiter.record(credentialKey(authorization));
      }
    }

    // Responses from fetch() or static files can have immutable headers: copy only then.
    let headers = response.headers;
    try {
      headers.set("x-request-id", requestId);
    } catch {
      headers = new Headers(headers);
      headers.set("x-request-id", requestId);
      response = new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    // A response that brings its own X-Content-Type-Options brings all four (one check, not four).
    if (!headers.has("x-content-type-options")) for (const [k, v] of SECURITY_HEADERS) headers.set(k, v);
    if (corsOrigin) {
      headers.set("access-control-allow-origin", corsOrigin);
      if (!allowAll) headers.append("vary", "Origin");
      headers.set("access-control-expose-headers", exposeHeaders);
    }
    const seconds = (performance.now() - started) / 1000;
    const status = response.status;
    const s = seriesOf(method, route);
    count(s, method, route, status);
    s.duration.observe(seconds);
    // The request id is word characters, dots and dashes (sanitised above or generated): no escaping needed.
    opts.log.infoJson("request", `"requestId":"${requestId}",${s.logMembers},"status":${status},"ms":${Math.round(seconds * 1000)}`);
    return response;
  };
}
