// The admin page's files: served from the binary's embedded copies, right content types, strict headers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { contentSecurityPolicy } from "../../src/modules/web";
import { NO_SOURCES, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
});
afterAll(async () => {
  await s.close();
});

const WEB_DIR = join(import.meta.dir, "..", "..", "web");
const web = (name: string) => Bun.file(join(WEB_DIR, name));
/** Every file of the page: web/ except screenshots/ (README images, never embedded into the binary). */
const pageFiles = readdirSync(WEB_DIR, { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile())
  .map((d) => relative(WEB_DIR, join(d.parentPath, d.name)))
  .filter((f) => !f.startsWith("screenshots/"));
const scripts = pageFiles.filter((f) => f.endsWith(".js"));

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

  test("every script module, the stylesheet, the icon and the graph library are served with their types and conditional requests", async () => {
    expect(scripts.length).toBeGreaterThan(10); // app.js, shell.js, lib/*, screens/*
    const files: Array<readonly [string, Bun.BunFile, string]> = [
      ...scripts.map((f) => [`/assets/${f}`, web(f), "text/javascript; charset=utf-8"] as const),
      ["/assets/app.css", web("app.css"), "text/css; charset=utf-8"],
      ["/favicon.svg", web("favicon.svg"), "image/svg+xml"],
      ["/assets/vendor/cytoscape.esm.js", Bun.file(join(import.meta.dir, "..", "..", "node_modules", "cytoscape", "dist", "cytoscape.esm.min.mjs")), "text/javascript; charset=utf-8"],
    ];
    // Nothing of web/ is left unserved: a module missing from src/modules/web/assets.ts would break the page.
    expect(pageFiles.filter((f) => f !== "index.html" && !f.endsWith(".js")).sort()).toEqual(["app.css", "favicon.svg"]);
    for (const [path, file, type] of files) {
      const res = await fetch(s.url + path);
      expect(`${path} ${res.status}`).toBe(`${path} 200`);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await res.text()).toBe(await file.text());
      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await fetch(s.url + path, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
    }
  });

  test("the modules import only each other, by relative path (no bare specifiers, nothing from another origin)", async () => {
    for (const f of scripts) {
      const text = await web(f).text();
      for (const m of text.matchAll(/(?:^|\n)\s*import\s[^;]*?from\s*"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)) {
        const spec = (m[1] ?? m[2])!;
        expect(`${f}: ${spec}`).toMatch(/: \.{1,2}\/[\w/.-]+\.js$/);
        const target = join(f, "..", spec);
        if (!target.startsWith("vendor/")) expect(scripts).toContain(target);
      }
    }
  });

  test("nothing in the page's files reaches for the internet or inserts HTML strings", async () => {
    const js = (await Promise.all(scripts.map((f) => web(f).text()))).join("\n");
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
