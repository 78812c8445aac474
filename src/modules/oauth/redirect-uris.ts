// Which redirect URIs a client may register (OAuth 2.1 §2.3.1, RFC 8252): https anywhere, http only to a
// loopback host (native apps), or a private-use scheme (`com.example.app:/cb`). Never a fragment, never a
// scheme a browser would run or read locally. Authorization requests must then match one exactly, except
// for the port of a loopback URI (RFC 8252 §7.3: a native app takes whatever port is free).

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const REFUSED_SCHEMES = new Set(["javascript:", "data:", "vbscript:", "file:", "blob:", "about:", "filesystem:", "ws:", "wss:", "ftp:", "mailto:"]);
export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;

/** Why `raw` cannot be a redirect URI, or null when it can. */
export function redirectUriProblem(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length === 0) return "a redirect URI must be a non-empty string";
  if (raw.length > MAX_URI_LENGTH) return `a redirect URI must be at most ${MAX_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${raw} is not an absolute URI`;
  }
  if (raw.includes("#")) return `${raw} has a fragment, which redirect URIs must not have`;
  if (url.protocol === "https:") return url.hostname ? null : `${raw} has no host`;
  if (url.protocol === "http:")
    return isLoopbackHost(url.hostname)
      ? null
      : `${raw} uses http to a non-loopback host: use https`;
  if (REFUSED_SCHEMES.has(url.protocol)) return `${raw} uses a scheme that cannot be a redirect URI`;
  return null; // a private-use scheme of a native app
}

/** Hosts whose http redirect URIs may come back on any port: loopback IP literals and `localhost`. */
function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Whether the redirect URI of an authorization request matches one the client registered: exactly, or for
 * an http loopback URI (127.0.0.0/8, [::1], localhost) the same host, path and query on any port. The host
 * itself never changes (127.0.0.1 does not match localhost), and nothing else is relaxed.
 */
export function redirectUriMatches(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  if (!presented.startsWith("http:") || presented.includes("#") || !URL.canParse(presented)) return false;
  const asked = new URL(presented);
  if (!isLoopbackHost(asked.hostname) || asked.username || asked.password) return false;
  return registered.some((uri) => {
    if (!uri.startsWith("http:") || !URL.canParse(uri)) return false;
    const known = new URL(uri);
    return isLoopbackHost(known.hostname) && known.hostname === asked.hostname && known.pathname === asked.pathname && known.search === asked.search && !known.username && !known.password;
  });
}
