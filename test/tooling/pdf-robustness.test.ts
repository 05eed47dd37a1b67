import { describe, expect, it } from "vitest";
import { renderInvoicePdf } from "../../src/pdf/render";
import type { PdfInput } from "../../src/pdf/types";
import {
  CORRECTIVE,
  esInput,
  GLOBAL,
  globalInput,
  item,
  LONG_WORDS,
  MULTISCRIPT,
  SIMPLIFIED,
  SPANISH,
} from "../fixtures/pdf-invoices";
import { customer, iva, line } from "../fixtures/verifactu-invoices";
import { FONTS } from "./pdf-fonts";

/**
 * Odd but valid invoices render, and never throw: this needs no PDF tools (pdf.test.ts reads
 * the results back with poppler and zbar). Each render is checked to be a whole PDF.
 */

const isPdf = (bytes: Uint8Array) => {
  const text = new TextDecoder("latin1").decode(bytes);
  return text.startsWith("%PDF-1.7") && text.trimEnd().endsWith("%%EOF");
};

const withInvoice = (input: PdfInput, patch: Partial<PdfInput["invoice"]>): PdfInput => ({
  ...input,
  invoice: { ...input.invoice, ...patch },
});

/** A deterministic pseudo-random generator (mulberry32), so a failing name can be reproduced. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A name of `length` code points from every plane, lone surrogates and controls included. */
function anyCodePoints(next: () => number, length: number): string {
  return Array.from({ length }, () => {
    const plane = next() < 0.7 ? 0 : Math.floor(next() * 17);
    const cp = plane * 0x10000 + Math.floor(next() * 0x10000);
    return cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
  }).join("");
}

const ODD: Record<string, PdfInput> = {
  "empty notes": withInvoice(SPANISH, { notes: "" }),
  "notes of blank lines, tabs and CRLF": withInvoice(SPANISH, {
    notes: "\n\n\tcon tabulador\r\n\r\n\u2028fin\n",
  }),
  "2,000 characters of notes": withInvoice(SPANISH, { notes: "Nota larga. ".repeat(167).slice(0, 2000) }),
  "no customer": SIMPLIFIED,
  "an issuer without address or Tax ID": withInvoice(SPANISH, {
    issuer: { name: "Emisor sin datos", tax_id: null, address: null, einvoicing: null },
  }),
  "a customer without address, email or phone": withInvoice(SPANISH, {
    customer: {
      ...customer("Sin dirección", { country: "ES", type: "es_nif", value: "12345678Z" }),
      address: null,
    },
  }),
  "zero-rate rows and a zero-amount line": esInput({
    issue_date: "2024-03-01",
    lines: [line("2", "3.5", iva("food_basic_temporary")), line("1", "0", iva("general"))],
  }),
  "negative amounts on a corrective": CORRECTIVE,
  "a 1,000-character description and a 1,000-character word": esInput({
    lines: [
      { ...line("1", "1", iva("general")), description: "palabra ".repeat(125).slice(0, 1000) },
      { ...line("1", "1", iva("general")), description: "W".repeat(1000) },
    ],
  }),
  "200 lines": esInput({ lines: Array.from({ length: 200 }, () => line("1", "0.01", iva("general"))) }),
  "200 lines of 1,000-character words (the longest invoice the API takes)": LONG_WORDS,
  "amounts near the 10^13 bound": esInput({ lines: [line("8", "999999999999.99", iva("general"))] }),
  "names in many scripts, CJK and emoji the font lacks": MULTISCRIPT,
  "combining marks, bidi overrides, joiners and a lone surrogate": withInvoice(SPANISH, {
    issuer: {
      ...SPANISH.invoice.issuer,
      name: "Z̴̡̛a̷l̸g̷o̶ \u202eevil\u202c \u200d\u200c\ufe0f \ud800 \u0000\u0007 \uffff",
    },
  }),
  "a 256-character name without spaces": withInvoice(SPANISH, {
    customer: { ...SPANISH.invoice.customer!, name: "Ñ".repeat(256) },
  }),
  "JPY without decimals": globalInput(
    [item("Servicio", "3", "1200", { name: "消費税", rate: "10%", effect: "added" })],
    {
      currency: "JPY",
    },
  ),
  "a global invoice without taxes": globalInput([item("Sin impuestos", "1", "100")]),
};

describe("invoice PDF: odd but valid input never throws", () => {
  for (const [name, input] of Object.entries(ODD)) {
    it(`renders ${name}`, async () => {
      expect(isPdf(await renderInvoicePdf(input, FONTS))).toBe(true);
    });
  }

  it("renders names of random code points from every plane (seeded)", async () => {
    const next = random(12);
    for (let i = 0; i < 10; i++) {
      const name = anyCodePoints(next, 1 + Math.floor(next() * 80));
      const input = withInvoice(GLOBAL, {
        issuer: { ...GLOBAL.invoice.issuer, name },
        notes: anyCodePoints(next, 200),
        lines: GLOBAL.invoice.lines.map((l) => ({ ...l, description: anyCodePoints(next, 60) })),
      });
      expect(isPdf(await renderInvoicePdf(input, FONTS)), JSON.stringify(name)).toBe(true);
    }
  });

  it("renders with the regular font only (no bold)", async () => {
    expect(isPdf(await renderInvoicePdf(SPANISH, { font: FONTS.font }))).toBe(true);
  });
});

describe("invoice PDF: deterministic bytes", () => {
  it("the same invoice and fonts give the same bytes", async () => {
    for (const input of [SPANISH, MULTISCRIPT, GLOBAL]) {
      const [a, b] = [await renderInvoicePdf(input, FONTS), await renderInvoicePdf(input, FONTS)];
      expect(a.length).toBe(b.length);
      expect(
        a.every((byte, i) => byte === b[i]),
        String(input.invoice.number),
      ).toBe(true);
    }
  });

  it("another created_at gives other bytes: the document is dated by the invoice (pdf.test.ts reads the date back)", async () => {
    const later = withInvoice(SPANISH, { created_at: "2026-11-24T10:30:00.000Z" });
    const [a, b] = [await renderInvoicePdf(SPANISH, FONTS), await renderInvoicePdf(later, FONTS)];
    expect(a.length === b.length && a.every((byte, i) => byte === b[i])).toBe(false);
  });
});
