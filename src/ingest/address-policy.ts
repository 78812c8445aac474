import { isIP } from "node:net";
import { IngestError } from "./errors.ts";

/**
 * Which destinations link ingestion may reach. Only globally routable unicast addresses are public;
 * everything else (private, loopback, link-local, metadata, multicast, reserved, documentation...)
 * is blocked unless the operator allow-lists the host.
 */
export type AddressClassification = { kind: "public" } | { kind: "blocked"; reason: string };

const PUBLIC: AddressClassification = { kind: "public" };
const blocked = (reason: string): AddressClassification => ({ kind: "blocked", reason });

type Range<N> = { base: N; prefix: number; reason: string };

// Single addresses first: metadata services sit inside wider ranges (or, for Azure, in public space).
const V4_RANGES: Range<number>[] = [
  ["169.254.169.254/32", "cloud metadata service"],
  ["169.254.170.2/32", "container metadata service (ECS)"],
  ["100.100.100.200/32", "cloud metadata service (Alibaba)"],
  ["168.63.129.16/32", "cloud platform service (Azure WireServer)"],
  ["0.0.0.0/8", "unspecified / this network (0.0.0.0/8)"],
  ["10.0.0.0/8", "private network (10.0.0.0/8)"],
  ["100.64.0.0/10", "carrier-grade NAT (100.64.0.0/10)"],
  ["127.0.0.0/8", "loopback (127.0.0.0/8)"],
  ["169.254.0.0/16", "link-local (169.254.0.0/16)"],
  ["172.16.0.0/12", "private network (172.16.0.0/12)"],
  ["192.0.0.0/24", "IETF protocol assignments (192.0.0.0/24)"],
  ["192.0.2.0/24", "documentation (192.0.2.0/24)"],
  ["192.88.99.0/24", "deprecated 6to4 relay (192.88.99.0/24)"],
  ["192.168.0.0/16", "private network (192.168.0.0/16)"],
  ["198.18.0.0/15", "benchmarking (198.18.0.0/15)"],
  ["198.51.100.0/24", "documentation (198.51.100.0/24)"],
  ["203.0.113.0/24", "documentation (203.0.113.0/24)"],
  ["224.0.0.0/4", "multicast (224.0.0.0/4)"],
  ["255.255.255.255/32", "broadcast"],
  ["240.0.0.0/4", "reserved (240.0.0.0/4)"],
].map(([cidr, reason]) => v4Range(cidr!, reason!));

// Ranges whose low bits carry an IPv4 address that the packet may end up at.
const V6_EMBEDDING_V4: Array<Range<bigint> & { shift: bigint }> = [
  { ...v6Range("::ffff:0:0/96", "IPv4-mapped"), shift: 0n },
  { ...v6Range("64:ff9b::/96", "NAT64"), shift: 0n },
  { ...v6Range("2002::/16", "6to4"), shift: 80n },
];

const V6_RANGES: Range<bigint>[] = [
  ["::/128", "unspecified (::)"],
  ["::1/128", "loopback (::1)"],
  ["::/96", "deprecated IPv4-compatible (::/96)"],
  ["64:ff9b:1::/48", "local-use NAT64 (64:ff9b:1::/48)"],
  ["100::/64", "discard-only (100::/64)"],
  ["2001::/32", "Teredo tunnel (2001::/32)"],
  ["2001:db8::/32", "documentation (2001:db8::/32)"],
  ["2001::/23", "IETF protocol assignments (2001::/23)"],
  ["3fff::/20", "documentation (3fff::/20)"],
  ["fd00:ec2::254/128", "cloud metadata service (AWS IPv6)"],
  ["fc00::/7", "unique local address (fc00::/7)"],
  ["fe80::/10", "link-local (fe80::/10)"],
  ["fec0::/10", "deprecated site-local (fec0::/10)"],
  ["ff00::/8", "multicast (ff00::/8)"],
].map(([cidr, reason]) => v6Range(cidr!, reason!));

const V6_GLOBAL_UNICAST = v6Range("2000::/3", "global unicast");

/** Names that reach metadata services or this machine without DNS telling us so. */
const BLOCKED_NAMES = new Map<string, string>([
  ["metadata.google.internal", "cloud metadata service name"],
  ["metadata.goog", "cloud metadata service name"],
  ["metadata", "cloud metadata service name"],
  ["instance-data", "cloud metadata service name"],
  ["instance-data.ec2.internal", "cloud metadata service name"],
  ["localhost", "loopback name"],
  ["localhost.localdomain", "loopback name"],
  ["ip6-localhost", "loopback name"],
  ["ip6-loopback", "loopback name"],
]);

/** Classifies an IP literal (v4 dotted quad or v6, brackets and zone id tolerated). Non-IPs are blocked. */
export function classifyAddress(address: string): AddressClassification {
  const ip = stripBrackets(address).replace(/%.*$/, "");
  const v4 = parseIPv4(ip);
  if (v4 !== undefined) return classifyV4(v4);
  const v6 = parseIPv6(ip);
  if (v6 !== undefined) return classifyV6(v6);
  return blocked("not an IP address");
}

/**
 * Verdict for a URL hostname before DNS: IP literals and known-dangerous names are decided here;
 * `undefined` means "an ordinary name: resolve it and classify every address".
 */
export function classifyHostname(hostname: string): AddressClassification | undefined {
  let host: string;
  try {
    host = normalizeHostname(hostname);
  } catch {
    return blocked("not a valid hostname");
  }
  if (isIP(host)) return classifyAddress(host);
  const nameReason = BLOCKED_NAMES.get(host) ?? (host.endsWith(".localhost") ? "loopback name" : undefined);
  return nameReason ? blocked(nameReason) : undefined;
}

function classifyV4(value: number): AddressClassification {
  const hit = V4_RANGES.find((r) => inV4Range(value, r));
  return hit ? blocked(hit.reason) : PUBLIC;
}

function classifyV6(value: bigint): AddressClassification {
  for (const r of V6_EMBEDDING_V4) {
    if (!inV6Range(value, r)) continue;
    const v4 = Number((value >> r.shift) & 0xffffffffn);
    const inner = classifyV4(v4);
    return inner.kind === "public" ? PUBLIC : blocked(`${r.reason} ${formatV4(v4)}: ${inner.reason}`);
  }
  const hit = V6_RANGES.find((r) => inV6Range(value, r));
  if (hit) return blocked(hit.reason);
  return inV6Range(value, V6_GLOBAL_UNICAST) ? PUBLIC : blocked("reserved IPv6 space (outside 2000::/3)");
}

// ---------------------------------------------------------------------------------------------
// Allow-list (BRAINBOX_FETCH_ALLOW_HOSTS)

export type AllowEntry = { host: string; port?: number };
export type AllowList = readonly AllowEntry[];

/**
 * Parses `host`, `host:port`, `[v6]`, `[v6]:port` (or a bare v6 literal), comma-separated.
 * Throws `allow_list_invalid` naming the bad entry, so a typo fails at start-up, not at fetch time.
 */
export function parseAllowList(raw: string | undefined): AllowList {
  if (!raw) return [];
  return raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map(parseAllowEntry);
}

function parseAllowEntry(entry: string): AllowEntry {
  const invalid = (why: string) =>
    new IngestError("allow_list_invalid", `BRAINBOX_FETCH_ALLOW_HOSTS entry "${entry}": ${why}`);
  let host = entry;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1]!;
    portText = bracketed[2];
  } else if ((entry.match(/:/g) ?? []).length === 1) {
    [host, portText] = entry.split(":") as [string, string];
  }
  if (/[\/\s@?#]/.test(host)) throw invalid("expected host or host:port");
  if (host.includes("*")) throw invalid("wildcards are not supported, list each host");
  let port: number | undefined;
  if (portText !== undefined) {
    port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 1 || port > 65535) throw invalid("port must be 1-65535");
  }
  let normalized: string;
  try {
    normalized = normalizeHostname(host);
  } catch {
    throw invalid("not a valid hostname");
  }
  if (!normalized) throw invalid("empty hostname");
  return port === undefined ? { host: normalized } : { host: normalized, port };
}

/** Hostname matches exactly (after normalization); port too when the entry names one. */
export function isAllowListed(list: AllowList, hostname: string, port: number): boolean {
  if (list.length === 0) return false;
  let host: string;
  try {
    host = normalizeHostname(hostname);
  } catch {
    return false;
  }
  return list.some((entry) => entry.host === host && (entry.port === undefined || entry.port === port));
}

/**
 * Canonical form shared by URLs and allow-list entries: the WHATWG URL host parser (lower case,
 * punycode, IPv4 shorthand like 127.1 expanded, IPv6 compressed), without brackets or trailing dot.
 * Throws on a hostname the URL parser rejects.
 */
export function normalizeHostname(hostname: string): string {
  const bare = stripBrackets(hostname.trim());
  const literal = bare.includes(":") ? `[${bare}]` : bare;
  const parsed = new URL(`http://${literal}/`).hostname;
  return stripBrackets(parsed).replace(/\.$/, "");
}

// ---------------------------------------------------------------------------------------------
// Parsing

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** Strict dotted quad only: shorthand forms are expanded by the URL parser before they get here. */
function parseIPv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

function parseIPv6(text: string): bigint | undefined {
  if (!text.includes(":") || isIP(text) !== 6) return undefined;
  let head = text;
  let tailV4: number | undefined;
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    tailV4 = parseIPv4(text.slice(lastColon + 1));
    if (tailV4 === undefined) return undefined;
    head = text.slice(0, lastColon + 1) + "0:0"; // stand-in groups, replaced below
  }
  const [left, right] = head.includes("::") ? head.split("::") : [head, undefined];
  const leftGroups = left ? left.split(":") : [];
  const rightGroups = right === undefined ? [] : right ? right.split(":") : [];
  const missing = 8 - leftGroups.length - rightGroups.length;
  if (right === undefined ? missing !== 0 : missing < 0) return undefined;
  const groups = [...leftGroups, ...Array<string>(Math.max(missing, 0)).fill("0"), ...rightGroups];
  let value = 0n;
  for (const group of groups) value = (value << 16n) | BigInt(parseInt(group || "0", 16));
  if (tailV4 !== undefined) value = (value & ~0xffffffffn) | BigInt(tailV4);
  return value;
}

function v4Range(cidr: string, reason: string): Range<number> {
  const [ip, prefix] = cidr.split("/") as [string, string];
  return { base: parseIPv4(ip)!, prefix: Number(prefix), reason };
}

function v6Range(cidr: string, reason: string): Range<bigint> {
  const [ip, prefix] = cidr.split("/") as [string, string];
  return { base: parseIPv6(ip)!, prefix: Number(prefix), reason };
}

function inV4Range(value: number, r: Range<number>): boolean {
  if (r.prefix === 0) return true;
  const mask = (0xffffffff << (32 - r.prefix)) >>> 0;
  return ((value & mask) >>> 0) === ((r.base & mask) >>> 0);
}

function inV6Range(value: bigint, r: Range<bigint>): boolean {
  const shift = BigInt(128 - r.prefix);
  return value >> shift === r.base >> shift;
}

function formatV4(value: number): string {
  return [24, 16, 8, 0].map((s) => (value >>> s) & 255).join(".");
}
