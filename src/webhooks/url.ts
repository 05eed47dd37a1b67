/**
 * The event destination URL rule, checked when a destination is created or updated.
 *
 * `new URL()` (WHATWG) does the normalising: it lowercases and punycodes host names, turns
 * IPv4 written in decimal, hex, octal or short form (`2130706433`, `0x7f.1`, `127.1`) into
 * dotted IPv4, and compresses IPv6. An IP literal is then classified by ipaddr.js, whose
 * table of special-purpose ranges (IANA's registries: private, loopback, CGNAT, Teredo,
 * 6to4, NAT64, ORCHID…) is maintained upstream instead of by hand here.
 *
 * Host names are not resolved: Workers have no DNS API, so a public name that resolves to a
 * private address is not caught here (outbound fetches from Workers leave from Cloudflare's
 * network, not from ours).
 */
import { IPv4, IPv6 } from "ipaddr.js";

export type UrlCheck = { ok: true; url: string } | { ok: false; message: string };

export const MAX_URL_LENGTH = 2048;

const PRIVATE_ADDRESS = "url must not point to a private or reserved address.";
const LOCAL_NAME = "url must not point to localhost or a local network name.";

// Whitespace and C0/C1 controls: `new URL()` would silently strip some of them.
const SPACE_OR_CONTROL = /[\u0000-\u0020\u007f-\u009f]/;

/**
 * IANA's global unicast block. ipaddr.js names every address outside its special ranges
 * "unicast", unallocated space (`1::1`, `4000::1`) and IPv4-compatible `::a.b.c.d` included.
 */
const GLOBAL_UNICAST = IPv6.parseCIDR("2000::/3");

/**
 * Only plain unicast is public; every special range is refused, including those that
 * tunnel to an IPv4 address (6to4, Teredo, NAT64), whose far end we cannot judge. An
 * IPv4-mapped address is the IPv4 address it maps.
 */
function isPublicAddress(address: IPv4 | IPv6): boolean {
  if (address instanceof IPv4) return address.range() === "unicast";
  if (address.isIPv4MappedAddress()) return isPublicAddress(address.toIPv4Address());
  return address.range() === "unicast" && address.match(GLOBAL_UNICAST);
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
 * which only resolve on a local network. Rejected IP literals: anything ipaddr.js does
 * not call "unicast" (loopback, private, link-local, CGNAT, multicast, documentation,
 * benchmarking, reserved, Teredo, 6to4, NAT64, ORCHID…), IPv6 outside 2000::/3, and
 * IPv4-mapped IPv6 whose IPv4 address is one of those.
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
    const literal = host.slice(1, -1);
    if (!IPv6.isValid(literal)) return { ok: false, message: "url must be a valid absolute URL." };
    return isPublicAddress(IPv6.parse(literal))
      ? { ok: true, url: url.href }
      : { ok: false, message: PRIVATE_ADDRESS };
  }
  if (IPv4.isValidFourPartDecimal(host)) {
    return isPublicAddress(IPv4.parse(host))
      ? { ok: true, url: url.href }
      : { ok: false, message: PRIVATE_ADDRESS };
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
