/**
 * IP literals as bytes, and whether one is a public unicast address. Hand-written instead of
 * ipaddr.js to keep the API Worker under its bundle budget (ipaddr.js was 3.9 KiB gzipped of
 * it). The tables are IANA's IPv4 and IPv6 Special-Purpose Address Registries (checked
 * 2026-11), plus multicast and the reserved 240/4.
 */

type Prefix = readonly [bytes: readonly number[], bits: number];

/** `a.b.c.d`, each 0–255 in decimal without leading zeros (as the URL parser writes IPv4). */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255)) return null;
  return parts.map(Number);
}

/** Any RFC 4291 text form (`::` at most once, an IPv4 tail allowed) as 16 bytes. */
export function parseIPv6(text: string): number[] | null {
  let body = text;
  const tail: number[] = [];
  if (text.includes(".")) {
    const cut = text.lastIndexOf(":") + 1;
    const v4 = parseIPv4(text.slice(cut));
    if (!v4) return null;
    // "::ffff:1.2.3.4" → "::ffff"; "::1.2.3.4" keeps its "::".
    body = text.slice(0, cut);
    if (!body.endsWith("::")) body = body.slice(0, -1);
    tail.push(((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number));
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const left = groups(halves[0] as string);
  const right = halves.length === 2 ? groups(halves[1] as string) : [];
  if ([...left, ...right].some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const known = left.length + right.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const words = [
    ...left.map((g) => Number.parseInt(g, 16)),
    ...Array<number>(8 - known).fill(0),
    ...right.map((g) => Number.parseInt(g, 16)),
    ...tail,
  ];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function within(bytes: readonly number[], [prefix, bits]: Prefix): boolean {
  for (let i = 0; i < bits; i += 8) {
    const mask = bits - i >= 8 ? 0xff : (0xff << (8 - (bits - i))) & 0xff;
    if (((bytes[i / 8] as number) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

const NOT_PUBLIC_V4: readonly Prefix[] = [
  [[0], 8], // "this network"
  [[10], 8], // private
  [[100, 64], 10], // shared address space (CGNAT)
  [[127], 8], // loopback
  [[169, 254], 16], // link-local (cloud metadata)
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2], 24], // documentation
  [[192, 31, 196], 24], // AS112-v4
  [[192, 52, 193], 24], // AMT
  [[192, 88, 99], 24], // 6to4 relay anycast
  [[192, 168], 16], // private
  [[192, 175, 48], 24], // AS112 direct delegation
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // documentation
  [[203, 0, 113], 24], // documentation
  [[224], 4], // multicast
  [[240], 4], // reserved, and the limited broadcast address
];

/** Global unicast is 2000::/3; inside it these are special-purpose. */
const GLOBAL_UNICAST: Prefix = [[0x20], 3];
const NOT_PUBLIC_V6: readonly Prefix[] = [
  [[0x20, 0x01, 0x00], 23], // IETF protocol assignments: Teredo, benchmarking, AMT, AS112, ORCHID…
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x20, 0x02], 16], // 6to4
  [[0x26, 0x20, 0x00, 0x4f, 0x80, 0x00], 48], // AS112-v6 direct delegation
  [[0x3f, 0xff, 0x00], 20], // documentation (RFC 9637)
];
const IPV4_MAPPED: Prefix = [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96];

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) stands for, else null. */
export function mappedIPv4(v6: readonly number[]): number[] | null {
  return within(v6, IPV4_MAPPED) ? v6.slice(12) : null;
}

/**
 * Whether a parsed address is plain public unicast. Every special range is refused, including
 * those that tunnel to an IPv4 address (6to4, Teredo, NAT64), whose far end we cannot judge;
 * IPv6 outside 2000::/3 is unallocated or special. An IPv4-mapped address is its IPv4 address.
 */
export function isPublicAddress(bytes: readonly number[]): boolean {
  if (bytes.length === 4) return !NOT_PUBLIC_V4.some((p) => within(bytes, p));
  const v4 = mappedIPv4(bytes);
  if (v4) return isPublicAddress(v4);
  return within(bytes, GLOBAL_UNICAST) && !NOT_PUBLIC_V6.some((p) => within(bytes, p));
}
