// The Host header never changes which route answers (issue 54 item 7): Elysia read the path from the 12th
// character of the URL on, so `Host: x` turned `/abc/metrics` into `/metrics`. Raw HTTP over a socket, since
// fetch() always sends the real host.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { NO_SOURCES, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let port: number;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
  port = Number(new URL(s.url).port);
});
afterAll(() => s.close());

/** Sends one raw HTTP/1.1 request and returns its status and body. */
async function raw(path: string, hostLine: string | null, key?: string): Promise<{ status: number; body: string }> {
  const head = [`GET ${path} HTTP/1.1`, ...(hostLine === null ? [] : [hostLine]), ...(key ? [`Authorization: Bearer ${key}`] : []), "Connection: close", "", ""];
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open: (socket) => void socket.write(head.join("\r\n")),
        data: (_socket, data) => void chunks.push(new Uint8Array(data)),
        close: () => resolve(Buffer.concat(chunks).toString("utf8")),
        error: (_socket, e) => reject(e),
      },
    }).catch(reject);
  });
  const [statusLine = "", ...rest] = text.split("\r\n");
  return { status: Number(statusLine.split(" ")[1]), body: rest.join("\r\n").split("\r\n\r\n").slice(1).join("\r\n\r\n") };
}

const ODD_HOSTS = ["Host: x", "Host: ab", "Host: abc", "Host:", "Host: x:1", "Host: [::1]", "Host: [::1]:8080", "Host: a/b", "Host: @x"];

describe("Host header and routing", () => {
  for (const host of ODD_HOSTS) {
    test(`${JSON.stringify(host)}: a prefixed path is no route, the real path is`, async () => {
      const metrics = await raw("/abc/metrics", host);
      expect(metrics.status).toBe(404);
      expect(metrics.body).toContain('"route_not_found"');
      expect(metrics.body).toContain("/abc/metrics");
      const account = await raw("/zzz/api/v1/account", host, s.key);
      expect(account.status).toBe(404);
      const deep = await raw("/zzzzzzzzz/api/v1/account", host, s.key);
      expect(deep.status).toBe(404);
      const real = await raw("/api/v1/account?x=1", host, s.key);
      expect(real.status).toBe(200);
      expect((await raw("/metrics", host)).body).toContain("http_requests_total");
    });
  }

  test("metrics and logs record the route that was asked for", async () => {
    await raw("/abc/metrics", "Host: x");
    const metrics = await (await fetch(`${s.url}/metrics`)).text();
    expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/abc\/metrics",status="404"\}/);
    expect(metrics).not.toMatch(/route="\/abc\/metrics",status="200"/);
  });
});
