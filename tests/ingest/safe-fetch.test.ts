import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseAllowList } from "../../src/ingest/address-policy.ts";
import { IngestError, type IngestErrorCode } from "../../src/ingest/errors.ts";
import { safeFetch, type SafeFetchOptions } from "../../src/ingest/safe-fetch.ts";
import { startLoopbackServer, type LoopbackServer } from "./loopback-server.ts";

// Every connection in this file goes to a loopback server started here. Refusals of other addresses
// are decided before any connection, and the resolver is injected where a hostname is involved.

async function expectIngestError(promise: Promise<unknown>, code: IngestErrorCode): Promise<IngestError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(IngestError);
    expect((error as IngestError).code).toBe(code);
    expect((error as IngestError).message.length).toBeGreaterThan(10);
    return error as IngestError;
  }
  throw new Error(`expected IngestError ${code}, got success`);
}

let site: LoopbackServer; // the allow-listed one
let other: LoopbackServer; // a second loopback port nobody allow-listed
let allowSite: SafeFetchOptions;

beforeAll(() => {
  other = startLoopbackServer(() => new Response("secret"));
  site = startLoopbackServer((req, url) => {
    const path = url.pathname;
    if (path === "/doc") return new Response("<h1>hello</h1>", { headers: { "content-type": "text/html; charset=utf-8" } });
    if (path === "/echo-host") return new Response(req.headers.get("host") ?? "");
    if (path === "/to-other") return Response.redirect(`${other.origin}/`, 302);
    if (path === "/to-metadata") return Response.redirect("http://169.254.169.254/latest/meta-data/", 301);
    if (path === "/to-ftp") return new Response(null, { status: 302, headers: { location: "ftp://127.0.0.1/file" } });
    if (path === "/no-location") return new Response(null, { status: 302 });
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) {
      const left = Number(hop[1]);
      return left === 0 ? new Response("arrived") : new Response(null, { status: 307, headers: { location: `/hop/${left - 1}` } });
    }
    if (path === "/hang") return new Promise<Response>(() => {});
    if (path === "/stall") {
      const body = new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("partial")) }); // never closes
      return new Response(body);
    }
    if (path === "/big") return new Response("x".repeat(100_000));
    if (path === "/big-stream") {
      let sent = 0;
      const body = new ReadableStream({
        pull(c) {
          if (sent >= 100) return c.close();
          sent++;
          c.enqueue(new Uint8Array(1000).fill(120));
        },
      });
      return new Response(body);
    }
    if (path === "/missing") return new Response("nope", { status: 404 });
    if (path === "/down") return new Response("later", { status: 503 });
    return new Response("not found", { status: 404 });
  });
  allowSite = { allowHosts: parseAllowList(`127.0.0.1:${site.port}`), timeoutMs: 5000 };
});

afterAll(async () => {
  await site.stop();
  await other.stop();
});

describe("safeFetch: allowed destinations", () => {
  test("an allow-listed loopback URL is fetched", async () => {
    const result = await safeFetch(`${site.origin}/doc#fragment`, allowSite);
    expect(result.status).toBe(200);
    expect(result.url).toBe(`${site.origin}/doc`);
    expect(result.contentType).toBe("text/html; charset=utf-8");
    expect(new TextDecoder().decode(result.body)).toBe("<h1>hello</h1>");
  });

  test("redirects are followed up to the cap, relative Locations resolved", async () => {
    const result = await safeFetch(`${site.origin}/hop/3`, { ...allowSite, maxRedirects: 3 });
    expect(result.url).toBe(`${site.origin}/hop/0`);
    expect(new TextDecoder().decode(result.body)).toBe("arrived");
  });

  test("a hostname is pinned to its vetted address, with the original Host header", async () => {
    const resolved: string[] = [];
    const result = await safeFetch(`http://wiki.test:${site.port}/echo-host`, {
      allowHosts: parseAllowList(`wiki.test:${site.port}`),
      resolve: async (name) => {
        resolved.push(name);
        return ["127.0.0.1"];
      },
    });
    expect(resolved).toEqual(["wiki.test"]);
    expect(new TextDecoder().decode(result.body)).toBe(`wiki.test:${site.port}`);
    expect(result.url).toBe(`http://wiki.test:${site.port}/echo-host`);
  });

  test("falls back to the next vetted address when one refuses the connection", async () => {
    const result = await safeFetch(`http://wiki.test:${site.port}/doc`, {
      allowHosts: parseAllowList(`wiki.test:${site.port}`),
      resolve: async () => ["::1", "127.0.0.1"], // the server listens on 127.0.0.1 only
    });
    expect(result.status).toBe(200);
  });

  test("https is pinned too: SNI and certificate checked against the hostname", async () => {
    const dir = `${import.meta.dir}/fixtures`;
    const cert = await Bun.file(`${dir}/wiki-test.cert.pem`).text();
    const key = await Bun.file(`${dir}/wiki-test.key.pem`).text();
    const tlsSite = startLoopbackServer((req) => new Response(`tls ${req.headers.get("host")}`), { cert, key });
    try {
      const options = { allowHosts: parseAllowList(`wiki.test:${tlsSite.port}`), resolve: async () => ["127.0.0.1"], ca: cert };
      const result = await safeFetch(`https://wiki.test:${tlsSite.port}/`, options);
      expect(new TextDecoder().decode(result.body)).toBe(`tls wiki.test:${tlsSite.port}`);
      // The same server under a name its certificate does not carry is rejected by TLS.
      const wrongName = { ...options, allowHosts: parseAllowList(`other.test:${tlsSite.port}`) };
      await expectIngestError(safeFetch(`https://other.test:${tlsSite.port}/`, wrongName), "connection_failed");
    } finally {
      await tlsSite.stop();
    }
  });
});

describe("safeFetch: refusals happen before connecting", () => {
  test("a loopback URL that is not allow-listed is refused and never reaches the server", async () => {
    const before = other.requests.length;
    for (const url of [
      `${other.origin}/`,
      `http://localhost:${other.port}/`,
      `http://127.1:${other.port}/`,
      `http://0x7f000001:${other.port}/`,
      `http://[::ffff:127.0.0.1]:${other.port}/`,
      `http://[::1]:${other.port}/`,
      `http://0.0.0.0:${other.port}/`,
    ]) {
      const error = await expectIngestError(safeFetch(url, { allowHosts: [] }), "address_blocked");
      expect(error.message).toContain("BRAINBOX_FETCH_ALLOW_HOSTS");
    }
    // allow-listed host, other port: still refused
    await expectIngestError(safeFetch(`${other.origin}/`, allowSite), "address_blocked");
    expect(other.requests.length).toBe(before);
  });

  test("metadata endpoints are refused by address and by name (no DNS, no connection)", async () => {
    let resolverCalls = 0;
    const resolve = async () => {
      resolverCalls++;
      return ["127.0.0.1"];
    };
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://metadata.google.internal/computeMetadata/v1/"]) {
      await expectIngestError(safeFetch(url, { allowHosts: [], resolve }), "address_blocked");
    }
    expect(resolverCalls).toBe(0);
  });

  test("a name is refused when ANY of its addresses is blocked", async () => {
    // The public address is never contacted: the private one refuses the whole name first.
    const resolve = async () => ["93.184.215.14", "10.1.2.3"];
    const error = await expectIngestError(safeFetch("http://mixed.example/", { allowHosts: [], resolve }), "address_blocked");
    expect(error.message).toContain("10.1.2.3");
    await expectIngestError(
      safeFetch(`http://rebind.example:${other.port}/`, { allowHosts: [], resolve: async () => ["127.0.0.1"] }),
      "address_blocked",
    );
    expect(other.requests.length).toBe(0);
  });

  test("a redirect to a loopback port that is not allow-listed is refused", async () => {
    const before = other.requests.length;
    await expectIngestError(safeFetch(`${site.origin}/to-other`, allowSite), "address_blocked");
    await expectIngestError(safeFetch(`${site.origin}/to-metadata`, allowSite), "address_blocked");
    expect(other.requests.length).toBe(before);
  });

  test("invalid URLs and other schemes", async () => {
    for (const url of ["not a url", "ftp://127.0.0.1/file", "file:///etc/passwd", "javascript:alert(1)", "data:text/plain,hi"]) {
      await expectIngestError(safeFetch(url, allowSite), "url_invalid");
    }
    await expectIngestError(safeFetch(`${site.origin}/to-ftp`, allowSite), "url_invalid");
  });

  test("unresolvable names", async () => {
    const resolve = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.example"), { code: "ENOTFOUND" });
    };
    await expectIngestError(safeFetch("http://nowhere.example/", { allowHosts: [], resolve }), "dns_failed");
    await expectIngestError(safeFetch("http://empty.example/", { allowHosts: [], resolve: async () => [] }), "dns_failed");
  });
});

describe("safeFetch: limits and failures", () => {
  test("too many redirects", async () => {
    await expectIngestError(safeFetch(`${site.origin}/hop/4`, { ...allowSite, maxRedirects: 3 }), "too_many_redirects");
    await expectIngestError(safeFetch(`${site.origin}/hop/1`, { ...allowSite, maxRedirects: 0 }), "too_many_redirects");
  });

  test("the caller's stop aborts a fetch the server holds: its reason, not a timeout of the page's", async () => {
    // A job handed back at shutdown stops its fetches at once instead of waiting out their timeout.
    const stop = new AbortController();
    const pending = safeFetch(`${site.origin}/hang`, { ...allowSite, timeoutMs: 60_000, signal: stop.signal });
    setTimeout(() => stop.abort(new Error("shutting down")), 50);
    const error = await pending.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(IngestError);
    expect((error as Error).message).toBe("shutting down");
  });

  test("a server that never answers times out", async () => {
    // /hang never answers: only the timeout can end the call.
    await expectIngestError(safeFetch(`${site.origin}/hang`, { ...allowSite, timeoutMs: 300 }), "timeout");
  });

  test("a body that stalls times out", async () => {
    await expectIngestError(safeFetch(`${site.origin}/stall`, { ...allowSite, timeoutMs: 300 }), "timeout");
  });

  test("bodies above maxBytes are cut off, with or without Content-Length", async () => {
    await expectIngestError(safeFetch(`${site.origin}/big`, { ...allowSite, maxBytes: 10_000 }), "too_large");
    await expectIngestError(safeFetch(`${site.origin}/big-stream`, { ...allowSite, maxBytes: 10_000 }), "too_large");
    const ok = await safeFetch(`${site.origin}/big-stream`, { ...allowSite, maxBytes: 100_000 });
    expect(ok.body.byteLength).toBe(100_000);
  });

  test("non-2xx answers are http_status errors carrying the status", async () => {
    const missing = await expectIngestError(safeFetch(`${site.origin}/missing`, allowSite), "http_status");
    expect(missing.details.status).toBe(404);
    expect(missing.retryable).toBe(false);
    const down = await expectIngestError(safeFetch(`${site.origin}/down`, allowSite), "http_status");
    expect(down.details.status).toBe(503);
    expect(down.retryable).toBe(true);
    await expectIngestError(safeFetch(`${site.origin}/no-location`, allowSite), "http_status");
  });

  test("a closed port is a connection failure", async () => {
    const closed = startLoopbackServer(() => new Response(""));
    const port = closed.port;
    await closed.stop();
    const error = await expectIngestError(
      safeFetch(`http://127.0.0.1:${port}/`, { allowHosts: parseAllowList(`127.0.0.1:${port}`) }),
      "connection_failed",
    );
    expect(error.retryable).toBe(true);
  });
});
