// Just enough XML reading for one SOAP answer: Workers have no DOMParser, and AEAT's answers
// are not always well-formed XML (a registered name may carry a bare "&"), which a strict
// parser would refuse. Elements are matched by local name, whatever their namespace prefix.

const PREFIX = "(?:[A-Za-z_][\\w.-]*:)?";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Resolves character references and the five named entities; a bare "&" stays as it is. */
export function decodeXml(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")
    .replace(/&(#x[0-9A-Fa-f]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/g, (whole, ref: string) => {
      if (!ref.startsWith("#")) return ENTITIES[ref] ?? whole;
      const code = ref[1] === "x" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
}

/**
 * The raw content of every element named `local` in `xml`, in document order; `""` for an
 * empty or self-closing one.
 *
 * @example
 * elements("<a:R><a:Nif>B1</a:Nif></a:R>", "Nif"); // ["B1"]
 */
export function elements(xml: string, local: string): string[] {
  const pattern = new RegExp(
    `<${PREFIX}${local}(?:\\s[^>]*?)?(?:/>|>([\\s\\S]*?)</${PREFIX}${local}\\s*>)`,
    "g",
  );
  return [...xml.matchAll(pattern)].map((match) => match[1] ?? "");
}

/** The decoded, trimmed text of the first element named `local`, if there is one. */
export function text(xml: string, local: string): string | undefined {
  const [first] = elements(xml, local);
  return first === undefined ? undefined : decodeXml(first).trim();
}
