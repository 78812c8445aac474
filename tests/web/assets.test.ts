// The admin page's files: served from the binary's embedded copies, right content types, strict headers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { contentSecurityPolicy } from "../../src/modules/web";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const web = (name: string) => Bun.file(join(import.meta.dir, "..", "..", "web", name));

describe("admin page assets", () => {
  test("the page carries a strict CSP (no inline script), nosniff, no referrer and no framing", async () => {
    const res = await fetch(`${s.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy")!;
    const directives = Object.fromEntries(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    expect(directives["default-src"]).toEqual(["'none'"]);
    expect(directives["script-src"]).toEqual(["'self'"]);
    expect(directives["style-src"]).toEqual(["'self'"]);
    expect(directives["connect-src"]).toEqual(["'self'"]);
    expect(directives["frame-ancestors"]).toEqual(["'none'"]);
    expect(directives["object-src"]).toEqual(["'none'"]);
    expect(directives["base-uri"]).toEqual(["'none'"]);
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const html = await res.text();
    expect(html).toBe(await web("index.html").text());
    // Scripts only by src from this server: no inline script, no inline handlers, no inline styles.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
  });

  test("the script, stylesheet and icon are served with their content types and conditional requests", async () => {
    for (const [path, file, type] of [
      ["/assets/app.js", "app.js", "text/javascript; charset=utf-8"],
      ["/assets/app.css", "app.css", "text/css; charset=utf-8"],
      ["/favicon.svg", "favicon.svg", "image/svg+xml"],
    ] as const) {
      const res = await fetch(s.url + path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await res.text()).toBe(await web(file).text());
      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await fetch(s.url + path, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
    }
  });

  test("nothing in the page's files reaches for the internet or inserts HTML strings", async () => {
    const js = await web("app.js").text();
    const css = await web("app.css").text();
    expect(`${js}\n${css}`).not.toMatch(/https?:\/\/(?!example\.com)[a-z0-9.-]+\.[a-z]{2,}/i);
    expect(css).not.toMatch(/@import|url\(/i);
    // User text goes in through textContent / DOM APIs only.
    expect(js).not.toMatch(/\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|\beval\(|new Function\(/);
  });

  test("extra origins (an S3 endpoint for presigned uploads) can be allowed for connect-src", () => {
    expect(contentSecurityPolicy(["https://s3.example.com/bucket"])).toContain("connect-src 'self' https://s3.example.com;");
  });
});
