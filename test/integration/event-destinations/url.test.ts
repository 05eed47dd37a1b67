import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { countRows } from "../../helpers/db";
import {
  createAccount,
  createDestination,
  type TestAccount,
  validDestination,
} from "../../helpers/factories";
import { readDestination } from "../../helpers/reads";
import { expectError } from "../../helpers/security";

/**
 * The destination URL rule: public https only. The tests run with APP_ENV "production",
 * so the loopback http URLs that local development (`npm start`) allows are rejected too.
 */

const destinationCount = (accountId: string) => countRows("event_destinations", accountId);

const REJECTED_URLS: [string, string][] = [
  ["plain http", "http://hooks.example.com/in"],
  ["ftp", "ftp://hooks.example.com/in"],
  ["credentials", "https://user:pass@hooks.example.com/in"],
  ["a user name only", "https://user@hooks.example.com/in"],
  ["localhost", "https://localhost/in"],
  ["a *.localhost name", "https://api.localhost/in"],
  ["a *.local name", "https://printer.local/in"],
  ["a *.internal name", "https://metadata.google.internal/computeMetadata"],
  ["loopback 127.0.0.1", "https://127.0.0.1/in"],
  ["private 10.x", "https://10.1.2.3/in"],
  ["private 172.16.x", "https://172.16.0.1/in"],
  ["private 172.31.x", "https://172.31.255.254/in"],
  ["private 192.168.x", "https://192.168.1.10/in"],
  ["cloud metadata 169.254.169.254", "https://169.254.169.254/latest/meta-data"],
  ["CGNAT 100.64.x", "https://100.64.0.1/in"],
  ["0.0.0.0", "https://0.0.0.0/in"],
  ["multicast 224.x", "https://224.0.0.1/in"],
  ["reserved 240.x", "https://240.0.0.1/in"],
  ["broadcast", "https://255.255.255.255/in"],
  ["IPv6 loopback [::1]", "https://[::1]/in"],
  ["IPv6 link-local [fe80::1]", "https://[fe80::1]/in"],
  ["IPv6 unique local [fc00::1]", "https://[fc00::1]/in"],
  ["IPv4-mapped loopback [::ffff:127.0.0.1]", "https://[::ffff:127.0.0.1]/in"],
  ["IPv4-mapped loopback in hex [::ffff:7f00:1]", "https://[::ffff:7f00:1]/in"],
  ["IPv4-mapped private [::ffff:10.0.0.1]", "https://[::ffff:10.0.0.1]/in"],
  ["decimal IPv4 (127.0.0.1)", "https://2130706433/in"],
  ["hex IPv4 (127.0.0.1)", "https://0x7f000001/in"],
  ["short IPv4 (127.1)", "https://127.1/in"],
  ["octal IPv4 (10.0.0.1)", "https://012.0.0.1/in"],
  ["loopback http with a port (local development only)", "http://127.0.0.1:9000/hook"],
  ["localhost http with a port (local development only)", "http://localhost:9000/hook"],
  ["not a URL", "hooks.example.com/in"],
  // Special-purpose ranges that are not ordinary unicast (IANA registries, src/http/ip.ts).
  ["Teredo 2001::/32", "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/in"],
  ["ORCHIDv2 2001:20::/28", "https://[2001:20::1]/in"],
  ["deprecated ORCHID 2001:10::/28", "https://[2001:10::1]/in"],
  ["6to4 2002::/16 of a public IPv4", "https://[2002:808:808::1]/in"],
  ["NAT64 64:ff9b::/96 of a public IPv4", "https://[64:ff9b::8.8.8.8]/in"],
  ["IPv4-translated ::ffff:0:0:0/96 (RFC 6145)", "https://[::ffff:0:808:808]/in"],
  ["AMT 2001:3::/32", "https://[2001:3::1]/in"],
  ["AS112 2001:4:112::/48", "https://[2001:4:112::1]/in"],
  ["drone remote ID 2001:30::/28", "https://[2001:30::1]/in"],
  ["segment routing 5f00::/16", "https://[5f00::1]/in"],
  ["IPv4-mapped CGNAT [::ffff:100.64.0.1]", "https://[::ffff:100.64.0.1]/in"],
  ["the 6to4 relay anycast 192.88.99.0/24", "https://192.88.99.1/in"],
  ["the 6to4 relay anycast in decimal (3227017985)", "https://3227017985/in"],
  ["AS112 192.175.48.0/24", "https://192.175.48.1/in"],
  ["AMT 192.52.193.0/24", "https://192.52.193.1/in"],
  ["hex and short IPv4 (0x7f.1)", "https://0x7f.1/in"],
  ["decimal IPv4 over http (http://2130706433/)", "http://2130706433/in"],
];

describe("event destinations: the URL rule", () => {
  let account: TestAccount;
  let api: ApiClient;
  let existing: string;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
    existing = (await createDestination(api)).id;
  });

  it("the URL parser writes decimal, hex, octal and short IPv4 as dotted decimal before the check", () => {
    for (const host of ["2130706433", "0x7f.1", "0177.0.0.1", "127.1", "0x7F000001"]) {
      expect(new URL(`http://${host}/`).hostname).toBe("127.0.0.1");
    }
    expect(new URL("https://[::FFFF:127.0.0.1]/").hostname).toBe("[::ffff:7f00:1]");
  });

  it.each(REJECTED_URLS)("create with %s is 400 with param url and creates nothing", async (_, url) => {
    const before = await destinationCount(account.id);
    const res = await api.post("/v1/event-destinations", { ...validDestination, url });
    expectError(res, 400, "parameter_invalid", "url");
    expect(await destinationCount(account.id)).toBe(before);
  });

  it.each(REJECTED_URLS)(
    "update to %s is 400 with param url and leaves the destination alone",
    async (_, url) => {
      const before = await readDestination(account.testKey, existing);
      const res = await api.patch(`/v1/event-destinations/${existing}`, { url });
      expectError(res, 400, "parameter_invalid", "url");
      expect(await readDestination(account.testKey, existing)).toEqual(before);
    },
  );

  it.each([
    ["a public host name", "https://hooks.example.com/in?x=1", "https://hooks.example.com/in?x=1"],
    [
      "a public host name with a port",
      "https://hooks.example.com:8443/in",
      "https://hooks.example.com:8443/in",
    ],
    ["a public IPv4 literal", "https://8.8.8.8/in", "https://8.8.8.8/in"],
    ["a public IPv6 literal", "https://[2606:4700:4700::1111]/in", "https://[2606:4700:4700::1111]/in"],
    ["an upper-case host (normalised)", "https://HOOKS.Example.COM/in", "https://hooks.example.com/in"],
    [
      "a public IPv6 literal next to the special 2001::/23",
      "https://[2001:4860::1]/in",
      "https://[2001:4860::1]/in",
    ],
    ["an IPv4-mapped public address", "https://[::ffff:8.8.8.8]/in", "https://[::ffff:808:808]/in"],
  ])("create with %s is accepted", async (_, url, stored) => {
    const res = await api.post("/v1/event-destinations", { ...validDestination, url });
    expectStatus(res, 201);
    expect(res.body.url).toBe(stored);
  });
});

describe("event destinations: the port rule (Live: the scheme's default port only; Test: any port)", () => {
  let account: TestAccount;
  let live: ApiClient;
  let test: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    live = client(account.liveKey);
    test = client(account.testKey);
  });

  it.each([
    ["8443", "https://hooks.example.com:8443/in"],
    ["80 on https", "https://hooks.example.com:80/in"],
    ["an IP literal's port", "https://8.8.8.8:9000/in"],
  ])(
    "a Live create with port %s is 400 parameter_invalid on url, saying why, and creates nothing",
    async (_, url) => {
      const before = await destinationCount(account.id);
      const res = await live.post("/v1/event-destinations", { ...validDestination, url });
      expectError(res, 400, "parameter_invalid", "url");
      expect(res.body.error.message).toContain("port");
      expect(await destinationCount(account.id)).toBe(before);
    },
  );

  it("a Live update to another port is 400 parameter_invalid on url and leaves the destination alone", async () => {
    const { id } = await createDestination(live);
    const before = await readDestination(account.liveKey, id);
    const res = await live.patch(`/v1/event-destinations/${id}`, {
      url: "https://hooks.example.com:8443/in",
    });
    expectError(res, 400, "parameter_invalid", "url");
    expect(await readDestination(account.liveKey, id)).toEqual(before);
  });

  it("a Live create with the explicit default port 443 is accepted, stored without it", async () => {
    const res = await live.post("/v1/event-destinations", {
      ...validDestination,
      url: "https://hooks.example.com:443/in",
    });
    expectStatus(res, 201);
    expect(res.body.url).toBe("https://hooks.example.com/in");
  });

  it("a Test create or update with any port is accepted", async () => {
    const res = await test.post("/v1/event-destinations", {
      ...validDestination,
      url: "https://hooks.example.com:8443/in",
    });
    expectStatus(res, 201);
    expect(res.body.url).toBe("https://hooks.example.com:8443/in");
    const moved = await test.patch(`/v1/event-destinations/${res.body.id}`, {
      url: "https://8.8.8.8:9000/in",
    });
    expectStatus(moved, 200);
    expect(moved.body.url).toBe("https://8.8.8.8:9000/in");
  });
});
