/**
 * Writing XML as strings, for the documents this service builds (the VERI*FACTU records, the
 * UBL and Facturae e-invoices): escaping and a small element builder. No parser, no I/O.
 */

// XML 1.0 cannot hold C0 controls other than tab, newline and carriage return, nor U+FFFE/U+FFFF.
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** Text content escaped for XML: `&`, `<`, `>`; `\r` as a reference so parsers keep it. */
export function escapeText(text: string): string {
  if (FORBIDDEN.test(text)) throw new RangeError("text with a character XML cannot hold");
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

/** An attribute value escaped for a double-quoted attribute (whitespace as references, so it survives normalization). */
export function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\t/g, "&#9;");
}

/** Markup already built (an element's output), or nothing. Arrays nest freely. */
export type XmlNode = string | null | undefined | false | readonly XmlNode[];

/** Built markup of the nodes, in order; `null`, `undefined` and `false` write nothing. */
export function flatten(nodes: XmlNode): string {
  if (typeof nodes === "string") return nodes;
  if (!nodes) return "";
  let out = "";
  for (const n of nodes) out += flatten(n);
  return out;
}

type Attributes = Readonly<Record<string, string | null | undefined>>;

/**
 * One element. A string value is its text (escaped); an array is its children (built markup).
 * An element with no value (`null`/`undefined`) or whose children all write nothing is left out,
 * so optional parts need no `if` and no document carries an empty element (Peppol's
 * PEPPOL-EN16931-R008 forbids them; XSDs rarely allow them). Attributes whose value is
 * null/undefined are left out; attributes are written in the order given.
 *
 * @example
 * el("cbc:Amount", "10.00", { currencyID: "EUR" }) // '<cbc:Amount currencyID="EUR">10.00</cbc:Amount>'
 * el("cac:Party", [el("cbc:Name", "A & B"), el("cbc:Note", undefined)]) // '<cac:Party><cbc:Name>A &amp; B</cbc:Name></cac:Party>'
 */
export function el(
  name: string,
  value: string | readonly XmlNode[] | null | undefined,
  attributes?: Attributes,
): string {
  if (value === null || value === undefined) return "";
  const body = typeof value === "string" ? escapeText(value) : flatten(value);
  if (typeof value !== "string" && body === "") return "";
  let attrs = "";
  for (const [key, v] of Object.entries(attributes ?? {})) {
    if (v !== null && v !== undefined) attrs += ` ${key}="${escapeAttribute(v)}"`;
  }
  return `<${name}${attrs}>${body}</${name}>`;
}
