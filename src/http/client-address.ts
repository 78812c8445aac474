// The client's address: the TCP peer, or, when the peer is a trusted proxy (BRAINBOX_TRUSTED_PROXIES),
// the nearest untrusted address its `Forwarded` / `X-Forwarded-For` header names. Headers from any other
// peer are ignored: anyone can send them.
import { isIP } from "node:net";

export interface Cidr {
  /** 4 or 16 bytes. */
  bytes: Uint8Array;
  bits: number;
  text: string;
}

/** Parses `10.0.0.0/8, 192.168.1.7, fd00::/8`; throws with the bad entry named. */
export function parseCidrList(raw: string): Cidr[] {
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [address = "", prefix, extra] = entry.split("/");
      const bytes = addressBytes(address);
      if (!bytes || extra !== undefined) throw new Error(`must be IP addresses or CIDR ranges (e.g. 10.0.0.0/8), got "${entry}"`);
      const max = bytes.length * 8;
      if (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) throw new Error(`has a bad prefix length in "${entry}"`);
      const bits = prefix === undefined ? max : Number(prefix);
      if (bits > max) throw new Error(`has a prefix longer than ${max} bits in "${entry}"`);
      return { bytes, bits, text: entry };
    });
}

/** 4 bytes for IPv4 (also IPv4-mapped IPv6), 16 for IPv6, null for anything else. */
export function addressBytes(raw: string): Uint8Array | null {
  const address = raw.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const kind = isIP(address);
  if (kind === 4) return new Uint8Array(address.split(".").map(Number));
  if (kind !== 6) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return addressBytes(mapped[1]!);
  let [head = "", tail] = address.split("::") as [string, string | undefined];
  // A trailing dotted quad (::1.2.3.4) counts as two groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(tail ?? head);
  const groupsOf = (s: string) => (s ? s.split(":") : []);
  const fromQuad = (s: string) => {
    const b = s.split(".").map(Number);
    return [((b[0]! << 8) | b[1]!).toString(16), ((b[2]! << 8) | b[3]!).toString(16)];
  };
  let left = groupsOf(head);
  let right = tail === undefined ? [] : groupsOf(tail);
  if (quad) {
    if (tail === undefined) left = [...left.slice(0, -1), ...fromQuad(quad[1]!)];
    else right = [...right.slice(0, -1), ...fromQuad(quad[1]!)];
  }
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    bytes[i * 2] = n >> 8;
    bytes[i * 2 + 1] = n & 0xff;
  });
  return bytes;
}

export function inCidrs(address: string, cidrs: Cidr[]): boolean {
  if (cidrs.length === 0) return false;
  const bytes = addressBytes(address);
  if (!bytes) return false;
  return cidrs.some((c) => {
    if (c.bytes.length !== bytes.length) return false;
    let bits = c.bits;
    for (let i = 0; bits > 0; i++, bits -= 8) {
      const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
      if ((bytes[i]! & mask) !== (c.bytes[i]! & mask)) return false;
    }
    return true;
  });
}

/** The hops a proxy chain reports, client first: `Forwarded: for=...` wins over `X-Forwarded-For`. */
function forwardedChain(headers: Headers): string[] {
  const forwarded = headers.get("forwarded");
  if (forwarded) {
    return forwarded.split(",").map((element) => {
      const pair = element.split(";").map((p) => p.trim()).find((p) => /^for=/i.test(p));
      return pair ? stripPort(pair.slice(4).replace(/^"|"$/g, "")) : "";
    });
  }
  const xff = headers.get("x-forwarded-for");
  return xff ? xff.split(",").map((s) => stripPort(s.trim())) : [];
}

/** `1.2.3.4:80` → `1.2.3.4`, `[::1]:80` → `::1`; bare IPv6 stays as it is. */
function stripPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1]!;
  if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(hop)) return hop.replace(/:\d+$/, "");
  return hop;
}

/**
 * The address to account a request to. Walks the proxy chain from the nearest hop outwards while the hops
 * are trusted proxies, and answers the first hop that is not one (an unparseable hop ends the walk there:
 * a client cannot hide behind garbage).
 */
export function clientAddress(peer: string, headers: Headers, trusted: Cidr[]): string {
  const normalized = (a: string) => a.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
  if (!inCidrs(peer, trusted)) return normalized(peer);
  const chain = forwardedChain(headers);
  let client = peer;
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = chain[i]!;
    if (!addressBytes(hop)) return hop ? `invalid:${hop.slice(0, 64)}` : client;
    client = hop;
    if (!inCidrs(hop, trusted)) break;
  }
  return normalized(client);
}

// The edge knows the peer; features behind it (sign-in throttling, the audit log) ask for the client's
// address by the request. Computed only when asked (most requests never are).
const addresses = new WeakMap<Request, () => string>();

/** Set by the edge for every request it hands to the app. */
export function rememberClientAddress(request: Request, address: () => string): void {
  addresses.set(request, address);
}

/** The client address the edge resolved for this request; null for a request that did not pass the edge. */
export function clientAddressOf(request: Request): string | null {
  return addresses.get(request)?.() ?? null;
}
