/**
 * The event destination URL rule, checked when a destination is created or updated.
 *
 * `new URL()` (WHATWG) does the normalising: it lowercases and punycodes host names, turns
 * IPv4 written in decimal, hex, octal or short form (`2130706433`, `0x7f.1`, `127.1`) into
 * dotted IPv4, and compresses IPv6. An IP literal is then classified against IANA's
 * special-purpose registries (src/http/ip.ts: private, loopback, CGNAT, Teredo, 6to4, NAT64,
 * ORCHID…).
 *
 * Host names are not resolved: Workers have no DNS API, so a public name that resolves to a
 * private address is not caught here (outbound fetches from Workers leave from Cloudflare's
 * network, not from ours).
 */
import { isPublicAddress, parseIPv4, parseIPv6 } from "../http/ip";

export type UrlCheck = { ok: true; url: string } | { ok: false; message: string };

export const MAX_URL_LENGTH = 2048;

const PRIVATE_ADDRESS = "url must not point to a private or reserved address.";
const LOCAL_NAME = "url must not point to localhost or a local network name.";

// Whitespace and C0/C1 controls: `new URL()` would silently strip some of them.
const SPACE_OR_CONTROL = /[\u0000-\u0020\u007f-\u009f]/;

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
 * which only resolve on a local network. Rejected IP literals: every special-purpose range
 * (loopback, private, link-local, CGNAT, multicast, documentation, benchmarking, reserved,
 * Teredo, 6to4, NAT64, ORCHID…), IPv6 outside 2000::/3, and IPv4-mapped IPv6 whose IPv4
 * address is one of those.
 *
 * `defaultPortOnly` (Live destinations) also rejects an explicit port other than the
 * scheme's own (443 for `https`, 80 for `http`), as other webhook services do; without it
 * (Test destinations, and the check before each delivery) any port is accepted.
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
export function checkDestinationUrl(
  raw: string,
  options: { allowLoopbackHttp: boolean; defaultPortOnly?: boolean },
): UrlCheck {
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
  // WHATWG URL drops the scheme's default port (`:443` on https), so any port left is another.
  if (options.defaultPortOnly && url.port !== "") {
    return {
      ok: false,
      message: `url must use the default port of https (443) in Live mode, not ${url.port}; Test mode accepts any port.`,
    };
  }

  const host = url.hostname;
  if (host.startsWith("[")) {
    const bytes = parseIPv6(host.slice(1, -1));
    if (!bytes) return { ok: false, message: "url must be a valid absolute URL." };
    return isPublicAddress(bytes) ? { ok: true, url: url.href } : { ok: false, message: PRIVATE_ADDRESS };
  }
  const v4 = parseIPv4(host);
  if (v4) {
    return isPublicAddress(v4) ? { ok: true, url: url.href } : { ok: false, message: PRIVATE_ADDRESS };
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
