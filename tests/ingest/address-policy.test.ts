import { describe, expect, test } from "bun:test";
import {
  classifyAddress,
  classifyHostname,
  isAllowListed,
  normalizeHostname,
  parseAllowList,
} from "../../src/ingest/address-policy.ts";
import { IngestError } from "../../src/ingest/errors.ts";

// Only literal classification here: nothing in this file opens a socket.
const BLOCKED: Array<[string, RegExp]> = [
  ["0.0.0.0", /unspecified/],
  ["0.1.2.3", /this network/],
  ["127.0.0.1", /loopback/],
  ["127.255.255.254", /loopback/],
  ["10.0.0.1", /private/],
  ["10.255.255.255", /private/],
  ["172.16.0.1", /private/],
  ["172.31.255.255", /private/],
  ["192.168.1.1", /private/],
  ["169.254.1.1", /link-local/],
  ["169.254.169.254", /metadata/],
  ["169.254.170.2", /metadata/],
  ["100.64.0.1", /carrier-grade NAT/],
  ["100.127.255.255", /carrier-grade NAT/],
  ["100.100.100.200", /metadata/],
  ["168.63.129.16", /Azure/],
  ["192.0.0.8", /IETF/],
  ["192.0.2.10", /documentation/],
  ["198.51.100.7", /documentation/],
  ["203.0.113.9", /documentation/],
  ["198.18.0.1", /benchmarking/],
  ["192.88.99.1", /6to4 relay/],
  ["224.0.0.1", /multicast/],
  ["239.255.255.250", /multicast/],
  ["240.0.0.1", /reserved/],
  ["255.255.255.255", /broadcast/],
  ["::", /unspecified/],
  ["::1", /loopback/],
  ["[::1]", /loopback/],
  ["0:0:0:0:0:0:0:1", /loopback/],
  ["::ffff:127.0.0.1", /IPv4-mapped 127\.0\.0\.1: loopback/],
  ["::ffff:7f00:1", /IPv4-mapped 127\.0\.0\.1/],
  ["::ffff:10.1.2.3", /IPv4-mapped .*private/],
  ["::ffff:169.254.169.254", /metadata/],
  ["0:0:0:0:0:ffff:a9fe:a9fe", /metadata/],
  ["::127.0.0.1", /IPv4-compatible/],
  ["64:ff9b::7f00:1", /NAT64 127\.0\.0\.1/],
  ["64:ff9b:1::1", /local-use NAT64/],
  ["2002:7f00:1::1", /6to4 127\.0\.0\.1/],
  ["2002:c0a8:101::1", /6to4 192\.168\.1\.1/],
  ["2001:0:4136:e378::1", /Teredo/],
  ["2001:db8::1", /documentation/],
  ["3fff::1", /documentation/],
  ["100::1", /discard/],
  ["fc00::1", /unique local/],
  ["fd12:3456:789a::1", /unique local/],
  ["fd00:ec2::254", /metadata/],
  ["fe80::1", /link-local/],
  ["fe80::1%eth0", /link-local/],
  ["febf:ffff::1", /link-local/],
  ["fec0::1", /site-local/],
  ["ff02::1", /multicast/],
  ["ff0e::1", /multicast/],
  ["4000::1", /reserved/],
  ["5f00::1", /reserved/],
  ["not-an-ip", /not an IP/],
  ["256.1.1.1", /not an IP/],
  ["1.2.3", /not an IP/],
];

const PUBLIC = [
  "1.1.1.1",
  "8.8.8.8",
  "93.184.215.14",
  "172.15.255.255",
  "172.32.0.1",
  "100.63.255.255",
  "100.128.0.1",
  "169.253.255.255",
  "192.169.0.1",
  "223.255.255.255",
  "2606:4700:4700::1111",
  "2a00:1450:4001:80b::200e",
  "2001:4860:4860::8888",
  "::ffff:8.8.8.8",
  "::ffff:808:808",
  "64:ff9b::808:808",
  "2002:808:808::1",
];

describe("classifyAddress", () => {
  for (const [address, reason] of BLOCKED) {
    test(`${address} is blocked (${reason.source})`, () => {
      const result = classifyAddress(address);
      expect(result.kind).toBe("blocked");
      if (result.kind === "blocked") expect(result.reason).toMatch(reason);
    });
  }
  for (const address of PUBLIC) {
    test(`${address} is public`, () => {
      expect(classifyAddress(address)).toEqual({ kind: "public" });
    });
  }
});

describe("classifyHostname", () => {
  test("metadata and loopback names are blocked without DNS", () => {
    for (const name of ["metadata.google.internal", "METADATA.GOOGLE.INTERNAL.", "metadata", "instance-data", "localhost", "api.localhost"]) {
      expect(classifyHostname(name)?.kind).toBe("blocked");
    }
  });
  test("IP literals are classified, including URL-normalized shorthand", () => {
    expect(classifyHostname("127.1")?.kind).toBe("blocked"); // 127.0.0.1
    expect(classifyHostname("0x7f000001")?.kind).toBe("blocked");
    expect(classifyHostname("2130706433")?.kind).toBe("blocked");
    expect(classifyHostname("[::ffff:127.0.0.1]")?.kind).toBe("blocked");
    expect(classifyHostname("8.8.8.8")).toEqual({ kind: "public" });
  });
  test("hostnames the URL parser rejects are blocked, not thrown", () => {
    expect(classifyHostname("exa mple.com")?.kind).toBe("blocked");
    expect(isAllowListed(parseAllowList("example.com"), "exa mple.com", 80)).toBe(false);
  });
  test("ordinary names need DNS", () => {
    expect(classifyHostname("example.com")).toBeUndefined();
    expect(classifyHostname("docs.internal.example")).toBeUndefined();
  });
});

describe("allow-list", () => {
  test("parses hosts, host:port and IPv6 forms", () => {
    expect(parseAllowList(" wiki.corp , 127.0.0.1:8080,[::1]:9000, fd00::5 ,Intranet.Example.:443,")).toEqual([
      { host: "wiki.corp" },
      { host: "127.0.0.1", port: 8080 },
      { host: "::1", port: 9000 },
      { host: "fd00::5" },
      { host: "intranet.example", port: 443 },
    ]);
    expect(parseAllowList(undefined)).toEqual([]);
    expect(parseAllowList("")).toEqual([]);
    expect(parseAllowList(" , ")).toEqual([]);
  });

  test("rejects malformed entries with the entry in the message", () => {
    for (const bad of ["host:0", "host:70000", "host:abc", "http://x.example", "a b", "*.corp.example", "user@host", "[::1]:x"]) {
      let error: unknown;
      try {
        parseAllowList(`ok.example,${bad}`);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(IngestError);
      expect((error as IngestError).code).toBe("allow_list_invalid");
      expect((error as IngestError).message).toContain(bad);
    }
  });

  test("matches on hostname, and on port when the entry has one", () => {
    const list = parseAllowList("wiki.corp,127.0.0.1:8080,[::1]:9000");
    expect(isAllowListed(list, "wiki.corp", 80)).toBe(true);
    expect(isAllowListed(list, "WIKI.corp.", 8443)).toBe(true);
    expect(isAllowListed(list, "sub.wiki.corp", 80)).toBe(false);
    expect(isAllowListed(list, "127.0.0.1", 8080)).toBe(true);
    expect(isAllowListed(list, "127.0.0.1", 8081)).toBe(false);
    expect(isAllowListed(list, "127.1", 8080)).toBe(true); // same address, shorthand
    expect(isAllowListed(list, "[::1]", 9000)).toBe(true);
    expect(isAllowListed(list, "0:0::1", 9000)).toBe(true);
    expect(isAllowListed(list, "::1", 9001)).toBe(false);
    expect(isAllowListed([], "wiki.corp", 80)).toBe(false);
  });

  test("normalizeHostname uses the URL host rules", () => {
    expect(normalizeHostname("Example.COM.")).toBe("example.com");
    expect(normalizeHostname("bücher.example")).toBe("xn--bcher-kva.example");
    expect(normalizeHostname("[0:0:0:0:0:0:0:1]")).toBe("::1");
  });
});
