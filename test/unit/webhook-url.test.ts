import { describe, expect, it } from "vitest";
import { checkDestinationUrl } from "../../src/webhooks/url";

const PROD = { allowLoopbackHttp: false };
const DEV = { allowLoopbackHttp: true };

const PRIVATE = "url must not point to a private or reserved address.";
const LOCAL_NAME = "url must not point to localhost or a local network name.";
const HTTPS = "url must use https.";

describe("destination URL: accepted", () => {
  it.each([
    ["https://example.com/hook", "https://example.com/hook"],
    [
      "https://api.example.com/webhooks?source=invoicing",
      "https://api.example.com/webhooks?source=invoicing",
    ],
    ["https://hooks.example.co.uk:8443/a/b", "https://hooks.example.co.uk:8443/a/b"],
    ["https://Example.COM", "https://example.com/"],
    ["https://example.com:443/a/../b", "https://example.com/b"],
    ["https://example.com./hook", "https://example.com./hook"],
    ["https://bücher.example/hook", "https://xn--bcher-kva.example/hook"],
    ["https://my-app.workers.dev/hook", "https://my-app.workers.dev/hook"],
    ["https://localhost.example.com/hook", "https://localhost.example.com/hook"],
    ["https://internal.example.com/hook", "https://internal.example.com/hook"],
  ])("a public host name is accepted and normalised: %s", (raw, href) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({ ok: true, url: href });
  });

  it.each([
    "https://8.8.8.8/hook",
    "https://1.1.1.1:443/hook",
    "https://9.255.255.255/",
    "https://11.0.0.1/",
    "https://100.63.255.255/",
    "https://100.128.0.1/",
    "https://126.255.255.255/",
    "https://128.0.0.1/",
    "https://169.253.255.255/",
    "https://169.255.0.1/",
    "https://172.15.255.255/",
    "https://172.32.0.1/",
    "https://192.0.1.1/",
    "https://192.0.3.1/",
    "https://192.167.255.255/",
    "https://192.169.0.1/",
    "https://198.17.255.255/",
    "https://198.20.0.1/",
    "https://223.255.255.255/",
  ])("a public IPv4 address is accepted: %s", (raw) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({ ok: true, url: new URL(raw).href });
  });

  it.each([
    ["https://[2606:4700:4700::1111]/hook", "https://[2606:4700:4700::1111]/hook"],
    ["https://[2001:4860:4860::8888]:8443/", "https://[2001:4860:4860::8888]:8443/"],
    ["https://[2a00:1450:4001:830::200e]/", "https://[2a00:1450:4001:830::200e]/"],
    ["https://[::ffff:8.8.8.8]/", "https://[::ffff:808:808]/"],
  ])("a public IPv6 address is accepted: %s", (raw, href) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({ ok: true, url: href });
  });
});

describe("destination URL: scheme, credentials, fragment, syntax and length", () => {
  it.each([
    "http://example.com/hook",
    "ftp://example.com/hook",
    "ws://example.com/hook",
    "wss://example.com/hook",
    "file:///etc/passwd",
    "gopher://example.com/",
    "javascript:alert(1)",
    "data:text/plain,hello",
    "mailto:hooks@example.com",
    "HTTP://example.com/",
  ])("a URL that is not https is rejected: %s", (raw) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({ ok: false, message: HTTPS });
  });

  it.each([
    "https://user@example.com/hook",
    "https://user:secret@example.com/hook",
    "https://:secret@example.com/hook",
    "https://us%40er:p%3Ass@example.com/",
    "https://user:pass@8.8.8.8/",
  ])("a URL with a user name or password is rejected: %s", (raw) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({
      ok: false,
      message: "url must not contain a user name or password.",
    });
  });

  it.each(["https://example.com/hook#section", "https://example.com/#", "https://example.com#x"])(
    "a URL with a fragment is rejected: %s",
    (raw) => {
      expect(checkDestinationUrl(raw, PROD)).toEqual({
        ok: false,
        message: "url must not contain a fragment (#).",
      });
    },
  );

  it.each([
    "",
    "example.com/hook",
    "/hook",
    "https://",
    "https://999.1.1.1/",
    "https://4294967296/",
    "https://[fe80::1%25eth0]/",
    "https://exa%20mple.com/",
    "https://[::1/",
  ])("a string that is not an absolute URL is rejected: %j", (raw) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({
      ok: false,
      message: "url must be a valid absolute URL.",
    });
  });

  it.each([
    " https://example.com/hook",
    "https://example.com/hook ",
    "https://exa\tmple.com/hook",
    "https://example.com/ho\nok",
    "https://example.com/hook\u0000",
    "https://example.com/a b",
    "https://example.com/\u0085",
  ])("a URL with spaces or control characters is rejected rather than silently cleaned: %j", (raw) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({
      ok: false,
      message: "url must not contain spaces or control characters.",
    });
  });

  it("a URL of 2048 characters is accepted and one of 2049 is rejected", () => {
    const base = "https://example.com/";
    const at = `${base}${"a".repeat(2048 - base.length)}`;
    expect(at).toHaveLength(2048);
    expect(checkDestinationUrl(at, PROD)).toEqual({ ok: true, url: at });
    expect(checkDestinationUrl(`${at}a`, PROD)).toEqual({
      ok: false,
      message: "url must be at most 2048 characters.",
    });
  });

  it("a URL that grows past 2048 characters when normalised is rejected", () => {
    const raw = `https://example.com/${"é".repeat(400)}`;
    expect(raw.length).toBeLessThanOrEqual(2048);
    expect(new URL(raw).href.length).toBeGreaterThan(2048);
    expect(checkDestinationUrl(raw, PROD)).toEqual({
      ok: false,
      message: "url must be at most 2048 characters once normalised.",
    });
  });
});

describe("destination URL: local host names", () => {
  it.each([
    "https://localhost/hook",
    "https://localhost:8443/hook",
    "https://LOCALHOST/hook",
    "https://localhost./hook",
    "https://%6c%6fcalhost/hook",
    "https://foo.localhost/hook",
    "https://a.b.localhost./hook",
    "https://printer.local/hook",
    "https://printer.local./hook",
    "https://metadata.google.internal/computeMetadata/v1/",
    "https://api.internal/hook",
  ])("localhost, *.localhost, *.local and *.internal are rejected: %s", (raw) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({ ok: false, message: LOCAL_NAME });
  });

  it.each(["https://router/hook", "https://intranet./hook", "https://_gateway/"])(
    "a single-label host name is rejected: %s",
    (raw) => {
      expect(checkDestinationUrl(raw, PROD)).toEqual({
        ok: false,
        message: "url host must be a public host name with a domain (like example.com).",
      });
    },
  );

  it.each(["https://a..example.com/", "https://localhost../", "https://.example.com/"])(
    "a host name with an empty label is rejected: %s",
    (raw) => {
      expect(checkDestinationUrl(raw, PROD)).toEqual({
        ok: false,
        message: "url host must be a valid host name.",
      });
    },
  );
});

describe("destination URL: private and reserved IPv4", () => {
  it.each([
    ["0/8 this network", "https://0.0.0.0/"],
    ["0/8 this network", "https://0.255.255.255/"],
    ["10/8 private", "https://10.0.0.1/"],
    ["10/8 private", "https://10.255.255.255/"],
    ["100.64/10 CGNAT", "https://100.64.0.1/"],
    ["100.64/10 CGNAT", "https://100.127.255.255/"],
    ["127/8 loopback", "https://127.0.0.1/"],
    ["127/8 loopback", "https://127.255.255.254:8443/hook"],
    ["169.254/16 link-local", "https://169.254.0.1/"],
    ["169.254/16 cloud metadata", "https://169.254.169.254/latest/meta-data/"],
    ["172.16/12 private", "https://172.16.0.1/"],
    ["172.16/12 private", "https://172.31.255.255/"],
    ["192.0.0/24 IETF protocol assignments", "https://192.0.0.8/"],
    ["192.0.2/24 TEST-NET-1", "https://192.0.2.1/"],
    ["192.168/16 private", "https://192.168.0.1/"],
    ["192.168/16 private", "https://192.168.255.255/"],
    ["198.18/15 benchmarking", "https://198.18.0.1/"],
    ["198.18/15 benchmarking", "https://198.19.255.255/"],
    ["198.51.100/24 TEST-NET-2", "https://198.51.100.7/"],
    ["203.0.113/24 TEST-NET-3", "https://203.0.113.9/"],
    ["224/4 multicast", "https://224.0.0.1/"],
    ["224/4 multicast", "https://239.255.255.250/"],
    ["240/4 reserved", "https://240.0.0.1/"],
    ["240/4 reserved", "https://254.255.255.255/"],
    ["broadcast", "https://255.255.255.255/"],
  ])("%s is rejected: %s", (_, raw) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({ ok: false, message: PRIVATE });
  });

  it.each([
    ["decimal", "https://2130706433/"],
    ["hex", "https://0x7f000001/"],
    ["hex and short", "https://0x7f.1/"],
    ["short", "https://127.1/"],
    ["octal", "https://0177.0.0.1/"],
    ["trailing dot", "https://127.0.0.1./"],
    ["single zero", "https://0/"],
    ["short private", "https://10.1/"],
    ["decimal private", "https://3232235777/"],
    ["hex metadata", "https://0xa9.0xfe.0xa9.0xfe/"],
    ["decimal metadata", "https://2852039166/"],
    ["decimal broadcast", "https://4294967295/"],
    ["percent-encoded", "https://%31%32%37.0.0.1/"],
  ])("IPv4 written in %s form is normalised and rejected: %s", (_, raw) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({ ok: false, message: PRIVATE });
  });
});

describe("destination URL: private and reserved IPv6", () => {
  it.each([
    ["unspecified", "https://[::]/"],
    ["loopback", "https://[::1]/"],
    ["loopback, long form", "https://[0:0:0:0:0:0:0:1]/"],
    ["unique local fc00::/7", "https://[fc00::1]/"],
    ["unique local fc00::/7", "https://[fd12:3456:789a::1]/"],
    ["link-local fe80::/10", "https://[fe80::1]/"],
    ["link-local fe80::/10", "https://[febf:ffff::1]/"],
    ["site-local fec0::/10 (deprecated)", "https://[fec0::1]/"],
    ["multicast ff00::/8", "https://[ff02::1]/"],
    ["multicast ff00::/8", "https://[ff0e::101]/"],
    ["documentation 2001:db8::/32", "https://[2001:db8::1]/"],
    ["documentation 2001:db8::/32", "https://[2001:0db8:ffff::1]/"],
    ["documentation 3fff::/20", "https://[3fff::1]/"],
    ["benchmarking 2001:2::/48", "https://[2001:2::1]/"],
    ["discard 100::/64", "https://[100::1]/"],
    ["NAT64 of a private IPv4", "https://[64:ff9b::10.0.0.1]/"],
    ["NAT64 of loopback, hex", "https://[64:ff9b::7f00:1]/"],
    ["local-use NAT64 64:ff9b:1::/48", "https://[64:ff9b:1::808:808]/"],
    ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/"],
    ["IPv4-mapped loopback, hex", "https://[::ffff:7f00:1]/"],
    ["IPv4-mapped private", "https://[::ffff:10.0.0.1]/"],
    ["IPv4-mapped metadata, hex", "https://[::ffff:a9fe:a9fe]/"],
    ["IPv4-mapped, long form", "https://[0:0:0:0:0:ffff:c0a8:101]/"],
    ["IPv4-compatible loopback", "https://[::127.0.0.1]/"],
    ["IPv4-compatible private", "https://[::192.168.1.1]/"],
    ["IPv4-compatible 0/8", "https://[::2]/"],
    ["6to4 of loopback", "https://[2002:7f00:1::1]/"],
    ["NAT64 of a public IPv4 (its far end is not ours to judge)", "https://[64:ff9b::8.8.8.8]/"],
    ["6to4 of a public IPv4 (its far end is not ours to judge)", "https://[2002:808:808::1]/"],
    ["unallocated, outside 2000::/3", "https://[1::1]/"],
    ["unallocated, outside 2000::/3", "https://[4000::1]/"],
  ])("%s is rejected: %s", (_, raw) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({ ok: false, message: PRIVATE });
  });
});

describe("destination URL: loopback http in local development", () => {
  it.each([
    ["http://127.0.0.1:8787/hooks", "http://127.0.0.1:8787/hooks"],
    ["http://localhost:3000/webhooks", "http://localhost:3000/webhooks"],
    ["http://localhost.:3000/webhooks", "http://localhost.:3000/webhooks"],
    ["http://LOCALHOST:3000/", "http://localhost:3000/"],
    ["http://127.1:9000/x", "http://127.0.0.1:9000/x"],
    ["http://127.0.0.1/", "http://127.0.0.1/"],
    ["https://localhost:8443/hooks", "https://localhost:8443/hooks"],
    ["https://127.0.0.1:8443/hooks", "https://127.0.0.1:8443/hooks"],
  ])("with allowLoopbackHttp, %s is accepted", (raw, href) => {
    expect(checkDestinationUrl(raw, DEV)).toEqual({ ok: true, url: href });
  });

  it.each([
    ["http://127.0.0.1:8787/hooks", HTTPS],
    ["http://localhost:3000/webhooks", HTTPS],
    ["https://127.0.0.1:8443/hooks", PRIVATE],
    ["https://localhost:8443/hooks", LOCAL_NAME],
  ])("without allowLoopbackHttp, %s is rejected", (raw, message) => {
    expect(checkDestinationUrl(raw, PROD)).toEqual({ ok: false, message });
  });

  it.each([
    ["http to a public host", "http://example.com/hook", HTTPS],
    ["http to another loopback address", "http://127.0.0.2:3000/", HTTPS],
    ["http to IPv6 loopback", "http://[::1]:3000/", HTTPS],
    ["http to a private address", "http://10.0.0.1:3000/", HTTPS],
    ["http to a *.localhost name", "http://app.localhost:3000/", HTTPS],
    ["https to IPv6 loopback", "https://[::1]:3000/", PRIVATE],
    ["https to a private address", "https://192.168.1.10/", PRIVATE],
    ["https to a *.local name", "https://printer.local/", LOCAL_NAME],
    ["another scheme to localhost", "ftp://localhost:21/", HTTPS],
    [
      "credentials to localhost",
      "http://user:pw@localhost:3000/",
      "url must not contain a user name or password.",
    ],
    ["a fragment to localhost", "http://localhost:3000/#x", "url must not contain a fragment (#)."],
  ])("with allowLoopbackHttp, %s is still rejected", (_, raw, message) => {
    expect(checkDestinationUrl(raw, DEV)).toEqual({ ok: false, message });
  });

  it("with allowLoopbackHttp, public https URLs are still accepted", () => {
    expect(checkDestinationUrl("https://example.com/hook", DEV)).toEqual({
      ok: true,
      url: "https://example.com/hook",
    });
  });
});
