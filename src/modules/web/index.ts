// The admin web page: static files from web/ (ES modules loaded as they are) and the graph library,
// embedded into the compiled binary (assets.ts imports each `with { type: "file" }`), served with strict
// security headers.
import { Elysia } from "elysia";
import { ASSET_FILES } from "./assets";

export interface WebOptions {
  /**
   * Origins besides the page's own that the page may call with fetch/XHR: the origin of
   * BRAINBOX_PUBLIC_URL when the admin opens the page under another host name, or an S3 endpoint that
   * receives presigned upload PUTs. Each must be an origin like `https://s3.example.com`.
   */
  connectOrigins?: string[];
}

/** The page's policy: only its own script and style, no inline code, no framing, no plugins. */
export function contentSecurityPolicy(connectOrigins: string[] = []): string {
  const connect = ["'self'", ...connectOrigins.map((o) => new URL(o).origin)].join(" ");
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // Wiki images only from this server (the page works air-gapped and leaks nothing to third parties).
    "img-src 'self' data:",
    `connect-src ${connect}`,
    "font-src 'self'",
    "manifest-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

interface Asset {
  /** Path of the file: on disk in development, inside the executable once compiled. */
  file: string;
  type: string;
  /** The HTML page gets the page-only headers (CSP, framing). */
  page?: boolean;
}

// Imported as files, the imports are path strings (bun-types types the .html import as an HTML bundle).
const assets: Record<string, Asset> = ASSET_FILES;

/**
 * Headers on every asset: revalidate on every load (ETag makes it cheap). nosniff, no-referrer, DENY framing
 * and the opener policy come from the edge (src/http/edge.ts) on every response.
 */
const baseHeaders = {
  "cache-control": "no-cache",
  "cross-origin-resource-policy": "same-origin",
};

function pageHeaders(csp: string) {
  return {
    "content-security-policy": csp,
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  };
}

interface Loaded {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

/** Reads each asset once (they are small) and tags it with a content hash for conditional requests. */
function loader(asset: Asset) {
  let loaded: Promise<Loaded> | undefined;
  return () =>
    (loaded ??= Bun.file(asset.file)
      .bytes()
      .then((bytes) => ({ bytes: bytes as Uint8Array<ArrayBuffer>, etag: `"${new Bun.CryptoHasher("sha256").update(bytes).digest("base64url").slice(0, 22)}"` }))
      .catch((e) => {
        loaded = undefined; // a missing file is retried on the next request rather than cached
        throw e;
      }));
}

export const webRoutes = (options: WebOptions = {}) => {
  const csp = contentSecurityPolicy(options.connectOrigins);
  const app = new Elysia({ detail: { hide: true } });
  for (const [path, asset] of Object.entries(assets)) {
    const load = loader(asset);
    const headers = { ...baseHeaders, "content-type": asset.type, ...(asset.page ? pageHeaders(csp) : {}) };
    // One static file of the admin page (the page itself at `/`).
    app.get(path, async ({ request }) => {
      const { bytes, etag } = await load();
      if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers: { ...headers, etag } });
      return new Response(bytes, { headers: { ...headers, etag } });
    });
  }
  return app;
};
