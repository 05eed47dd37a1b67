/**
 * The event destination URL rule, checked when a destination is created or updated.
 *
 * `new URL()` (WHATWG) does the normalising: it lowercases and punycodes host names, turns
 * IPv4 written in decimal, hex, octal or short form (`2130706433`, `0x7f.1`, `127.1`) into
 * dotted IPv4, and compresses IPv6. The checks below classify that normalised host, so
 * odd spellings of a private address cannot slip through.
 *
 * Host names are not resolved: Workers have no DNS API, so a public name that resolves to a
 * private address is not caught here (outbound fetches from Workers leave from Cloudflare's
 * network, not from ours).
 */

export type UrlCheck = { ok: true; url: string } | { ok: false; message: string };

export const MAX_URL_LENGTH = 2048;

const PRIVATE_ADDRESS = "url must not point to a private or reserved address.";
const LOCAL_NAME = "url must not point to localhost or a local network name.";

// Whitespace and C0/C1 controls: `new URL()` would silently strip some of them.
const SPACE_OR_CONTROL = /[\u0000-\u0020\u007f-\u009f]/;
const DOTTED_IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** [network, prefix length] pairs; `0xffffffff` is 255.255.255.255, inside 240/4. */
const BLOCKED_IPV4: ReadonlyArray<readonly [number, number]> = [
  [0x00000000, 8], // 0.0.0.0/8 "this network"
  [0x0a000000, 8], // 10/8 private
  [0x64400000, 10], // 100.64/10 CGNAT
  [0x7f000000, 8], // 127/8 loopback
  [0xa9fe0000, 16], // 169.254/16 link-local, cloud metadata
  [0xac100000, 12], // 172.16/12 private
  [0xc0000000, 24], // 192.0.0/24 IETF protocol assignments
  [0xc0000200, 24], // 192.0.2/24 TEST-NET-1
  [0xc0a80000, 16], // 192.168/16 private
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xc6336400, 24], // 198.51.100/24 TEST-NET-2
  [0xcb007100, 24], // 203.0.113/24 TEST-NET-3
  [0xe0000000, 4], // 224/4 multicast
  [0xf0000000, 4], // 240/4 reserved, includes broadcast
];

function ipv4InRange(ip: number, network: number, prefix: number): boolean {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (ip & mask) >>> 0 === network;
}

function isPublicIpv4(ip: number): boolean {
  return !BLOCKED_IPV4.some(([network, prefix]) => ipv4InRange(ip, network, prefix));
}

function parseDottedIpv4(host: string): number | null {
  const m = DOTTED_IPV4.exec(host);
  if (!m) return null;
  const octets = m.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return null;
  return octets.reduce((acc, o) => acc * 256 + o, 0);
}

/** Eight 16-bit groups, or `null`. `new URL()` already wrote any dotted IPv4 tail as hex. */
function parseIpv6(s: string): number[] | null {
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const toGroups = (part: string) => (part === "" ? [] : part.split(":"));
  const head = toGroups(halves[0] ?? "");
  const rest = toGroups(halves[1] ?? "");
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...Array<string>(missing).fill("0"), ...rest].map((g) => Number.parseInt(g, 16));
}

function embeddedIpv4(high: number, low: number): number {
  return high * 0x10000 + low;
}

/**
 * Only global unicast (2000::/3) is public, minus documentation and benchmarking blocks;
 * forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by it.
 */
function isPublicIpv6(g: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const v4 = embeddedIpv4(g6, g7);
  const first80Zero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (first80Zero && g5 === 0xffff) return isPublicIpv4(v4); // ::ffff:a.b.c.d mapped
  if (first80Zero && g5 === 0) return isPublicIpv4(v4); // ::a.b.c.d compatible, also :: and ::1
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isPublicIpv4(v4); // 64:ff9b::/96 NAT64
  }
  if (g0 === 0x2002) return isPublicIpv4(embeddedIpv4(g1, g2)); // 2002::/16 6to4
  if ((g0 & 0xe000) !== 0x2000) return false; // outside 2000::/3: ULA, link-local, multicast, 100::/64…
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // 2001:db8::/32 documentation
  if (g0 === 0x2001 && g1 === 0x0002 && g2 === 0) return false; // 2001:2::/48 benchmarking
  if (g0 === 0x3fff && g1 < 0x1000) return false; // 3fff::/20 documentation
  return true;
}

function isLocalName(name: string): boolean {
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    name.endsWith(".local") ||
    name.endsWith(".internal")
  );
}

function isDevLoopback(url: URL): boolean {
  const host = url.hostname.replace(/\.$/, "");
  return host === "127.0.0.1" || host === "localhost";
}

/**
 * Checks an event destination URL and returns it normalised (`new URL(raw).href`).
 *
 * Accepted: `https` to a public host name or a public IP literal, at most 2048 characters,
 * without credentials or a fragment (a webhook URL never needs one, and it is not sent
 * in the request). Rejected host names: `localhost`, `*.localhost`, `*.local`,
 * `*.internal` (a trailing dot is the same name) and single-label names (`https://router/`),
 * which only resolve on a local network. Rejected IP literals: loopback, private,
 * link-local, CGNAT, multicast, documentation, benchmarking and reserved ranges, IPv4
 * and IPv6, including IPv4 embedded in IPv6.
 *
 * `allowLoopbackHttp` is true only under local development (`npm start`): it lets
 * `http` or `https` reach `127.0.0.1` and `localhost` on any port. Everything else still
 * follows the rule above.
 *
 * @example
 * checkDestinationUrl("https://Example.com/hooks", { allowLoopbackHttp: false })
 * // { ok: true, url: "https://example.com/hooks" }
 * checkDestinationUrl("https://127.1/", { allowLoopbackHttp: false })
 * // { ok: false, message: "url must not point to a private or reserved address." }
 */
export function checkDestinationUrl(raw: string, options: { allowLoopbackHttp: boolean }): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) {
    return { ok: false, message: `url must be at most ${MAX_URL_LENGTH} characters.` };
  }
  if (SPACE_OR_CONTROL.test(raw)) {
    return { ok: false, message: "url must not contain spaces or control characters." };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "url must be a valid absolute URL." };
  }
  if (url.href.length > MAX_URL_LENGTH) {
    return { ok: false, message: `url must be at most ${MAX_URL_LENGTH} characters once normalised.` };
  }
  const devLoopback = options.allowLoopbackHttp && isDevLoopback(url);
  if (url.protocol !== "https:" && !(devLoopback && url.protocol === "http:")) {
    return { ok: false, message: "url must use https." };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, message: "url must not contain a user name or password." };
  }
  if (url.href.includes("#")) {
    return { ok: false, message: "url must not contain a fragment (#)." };
  }
  if (url.hostname === "") return { ok: false, message: "url must have a host." };
  if (devLoopback) return { ok: true, url: url.href };

  const host = url.hostname;
  if (host.startsWith("[")) {
    const groups = parseIpv6(host.slice(1, -1));
    if (groups === null) return { ok: false, message: "url must be a valid absolute URL." };
    return isPublicIpv6(groups) ? { ok: true, url: url.href } : { ok: false, message: PRIVATE_ADDRESS };
  }
  const v4 = parseDottedIpv4(host);
  if (v4 !== null) {
    return isPublicIpv4(v4) ? { ok: true, url: url.href } : { ok: false, message: PRIVATE_ADDRESS };
  }
  const name = host.endsWith(".") ? host.slice(0, -1) : host;
  if (name.split(".").some((label) => label === "")) {
    return { ok: false, message: "url host must be a valid host name." };
  }
  if (isLocalName(name)) return { ok: false, message: LOCAL_NAME };
  if (!name.includes(".")) {
    return { ok: false, message: "url host must be a public host name with a domain (like example.com)." };
  }
  return { ok: true, url: url.href };
}
