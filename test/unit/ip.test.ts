import { describe, expect, it } from "vitest";
import { isPublicAddress, mappedIPv4, parseIPv4, parseIPv6 } from "../../src/http/ip";

const hex = (bytes: number[] | null) => bytes?.map((b) => b.toString(16).padStart(2, "0")).join("") ?? null;

describe("IP literals as bytes", () => {
  it.each([
    ["::", "00000000000000000000000000000000"],
    ["::1", "00000000000000000000000000000001"],
    ["2001:db8::8a2e:370:7334", "20010db80000000000008a2e03707334"],
    ["2001:0db8:0000:0000:0000:ff00:0042:8329", "20010db8000000000000ff0000428329"],
    ["fe80::", "fe800000000000000000000000000000"],
    ["::ffff:1.2.3.4", "00000000000000000000ffff01020304"],
    ["::1.2.3.4", "00000000000000000000000001020304"],
    ["64:ff9b::8.8.8.8", "0064ff9b000000000000000008080808"],
    ["1:2:3:4:5:6:7.8.9.10", "000100020003000400050006" + "0708090a"],
    ["1:2:3:4:5:6:7::", "00010002000300040005000600070000"],
  ])("IPv6 %s", (text, bytes) => {
    expect(hex(parseIPv6(text))).toBe(bytes);
  });

  it.each([
    ":::",
    "1::2::3",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7",
    "12345::",
    "::g",
    ":1::",
    "::1.2.3",
    "::256.1.1.1",
    "",
  ])("not IPv6: %s", (text) => {
    expect(parseIPv6(text)).toBeNull();
  });

  it.each(["1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "a.b.c.d", ""])("not dotted IPv4: %s", (text) => {
    expect(parseIPv4(text)).toBeNull();
  });

  it("an IPv4-mapped address stands for its IPv4 address", () => {
    expect(mappedIPv4(parseIPv6("::ffff:7f00:1") as number[])).toEqual([127, 0, 0, 1]);
    expect(mappedIPv4(parseIPv6("::7f00:1") as number[])).toBeNull();
  });
});

describe("public unicast and the special-purpose ranges", () => {
  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "192.169.0.1",
    "198.20.0.1",
    "223.255.255.255",
  ])("public IPv4 %s", (text) => {
    expect(isPublicAddress(parseIPv4(text) as number[])).toBe(true);
  });

  it.each([
    "0.1.2.3",
    "100.127.255.255",
    "172.31.0.1",
    "192.0.0.8",
    "192.31.196.1",
    "198.19.255.255",
    "239.1.1.1",
    "255.255.255.255",
  ])("not public IPv4 %s", (text) => {
    expect(isPublicAddress(parseIPv4(text) as number[])).toBe(false);
  });

  it.each([
    "2606:4700:4700::1111",
    "2a00:1450::1",
    "2001:200::1",
    "2620:4f:8001::1",
    "3ffe::1",
    "::ffff:8.8.8.8",
  ])("public IPv6 %s", (text) => {
    expect(isPublicAddress(parseIPv6(text) as number[])).toBe(true);
  });

  it.each([
    "2001:1ff::1",
    "2001:db8::1",
    "2002::1",
    "2620:4f:8000::1",
    "3fff:fff::1",
    "4000::1",
    "fc00::1",
    "ff02::1",
    "::",
    "1::1",
  ])("not public IPv6 %s", (text) => {
    expect(isPublicAddress(parseIPv6(text) as number[])).toBe(false);
  });
});
