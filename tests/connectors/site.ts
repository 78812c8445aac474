// A loopback website for connector tests: pages with ETags (conditional GET answered 304), a sitemap,
// robots.txt, and hostile routes (a redirect loop, a huge page, a host that hangs). Records every request.
export interface SitePage {
  title: string;
  body: string;
  links?: string[];
  /** false: no validators sent (the connector falls back to hashing). */
  etag?: boolean;
  status?: number;
}

export interface Site {
  url: string;
  pages: Map<string, SitePage>;
  robots: string;
  sitemap: string[] | null;
  /** Every request: method, path, and whether it was conditional. */
  requests: { path: string; conditional: boolean; status: number; headers: Headers }[];
  /** Paths that never answer (until the test ends). */
  hang: Set<string>;
  stop(): void;
}

const etagOf = (p: SitePage) => `"${Bun.hash(p.title + p.body + (p.links ?? []).join()).toString(16)}"`;

export function html(p: SitePage): string {
  const links = (p.links ?? []).map((l) => `<li><a href="${l}">${l}</a></li>`).join("");
  return `<!doctype html><html><head><title>${p.title}</title></head><body><main><h1>${p.title}</h1><p>${p.body}</p><ul>${links}</ul></main></body></html>`;
}

export function startSite(): Site {
  const site: Site = {
    url: "",
    pages: new Map(),
    robots: "User-agent: *\nAllow: /\n",
    sitemap: null,
    requests: [],
    hang: new Set(),
    stop: () => server.stop(true),
  };
  const never = new Promise<Response>(() => undefined);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      const conditional = req.headers.has("if-none-match") || req.headers.has("if-modified-since");
      const record = (res: Response) => (site.requests.push({ path, conditional, status: res.status, headers: req.headers }), res);
      if (site.hang.has(path)) return never;
      if (path === "/robots.txt") return record(new Response(site.robots, { headers: { "content-type": "text/plain" } }));
      if (path === "/sitemap.xml" && site.sitemap)
        return record(new Response(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${site.sitemap.map((p) => `<url><loc>${site.url}${p}</loc></url>`).join("")}</urlset>`, { headers: { "content-type": "application/xml" } }));
      if (path.startsWith("/loop/")) return record(Response.redirect(`${site.url}/loop/${Number(path.slice(6)) + 1}`, 302));
      if (path.startsWith("/index-")) {
        // A sitemap index nesting sitemaps without end: each names 10,000 more.
        const n = Number(path.slice(7).replace(".xml", ""));
        const entries = Array.from({ length: 10_000 }, (_, i) => `<sitemap><loc>${site.url}/index-${n * 10_000 + i + 1}.xml</loc></sitemap>`).join("");
        return record(new Response(`<?xml version="1.0"?><sitemapindex>${entries}</sitemapindex>`, { headers: { "content-type": "application/xml" } }));
      }
      if (path === "/huge") {
        // 50 MB streamed, no length announced: the reader must stop at the byte bound.
        let sent = 0;
        const chunk = new TextEncoder().encode("<p>" + "x".repeat(65_530) + "</p>");
        const stream = new ReadableStream({
          pull(c) {
            if (sent >= 50 * 1024 * 1024) return c.close();
            sent += chunk.byteLength;
            c.enqueue(chunk);
          },
        });
        return record(new Response(stream, { headers: { "content-type": "text/html" } }));
      }
      const page = site.pages.get(path);
      if (!page) return record(new Response("not found", { status: 404 }));
      if (page.status) return record(new Response("gone", { status: page.status }));
      const etag = page.etag === false ? undefined : etagOf(page);
      if (etag && req.headers.get("if-none-match") === etag) return record(new Response(null, { status: 304, headers: { etag } }));
      return record(new Response(html(page), { headers: { "content-type": "text/html; charset=utf-8", ...(etag ? { etag } : {}) } }));
    },
  });
  site.url = `http://127.0.0.1:${server.port}`;
  return site;
}
