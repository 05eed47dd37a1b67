import { describe, expect, it } from "vitest";
import {
  addressLines,
  date,
  decimal,
  iban,
  money,
  negated,
  percent,
  taxId,
  withDecimals,
} from "../../src/pdf/format";
import { CORRECTION_REASON_TEXT, legalMentions, lineTax } from "../../src/pdf/mentions";
import { clean, paragraphs, runs } from "../../src/pdf/text";
import { EXEMPT, SPANISH } from "../fixtures/pdf-invoices";

/** What the PDF prints, as strings: Spanish number and date formats, tax wording, text runs. */

const NBSP = "\u00a0";

describe("money and numbers are formatted from their decimal strings, never through a float", () => {
  it("thousands take '.', decimals ',', the euro sign follows the amount after a no-break space", () => {
    expect(money("1234.50", "EUR")).toBe(`1.234,50${NBSP}€`);
    expect(money("0.00", "EUR")).toBe(`0,00${NBSP}€`);
    expect(money("-40.33", "EUR")).toBe(`-40,33${NBSP}€`);
    expect(money("999.99", "EUR")).toBe(`999,99${NBSP}€`);
  });

  it("other currencies show their ISO code; JPY has no decimals and BHD three", () => {
    expect(money("1100.00", "AUD")).toBe(`1.100,00${NBSP}AUD`);
    expect(money("1234567", "JPY")).toBe(`1.234.567${NBSP}JPY`);
    expect(money("-1.005", "BHD")).toBe(`-1,005${NBSP}BHD`);
  });

  it("amounts beyond a double's precision keep every digit", () => {
    expect(decimal("9007199254740993.01")).toBe("9.007.199.254.740.993,01");
    expect(decimal("-10000000000000.00")).toBe("-10.000.000.000.000,00");
  });

  it("a withheld amount is shown negated; zero stays unsigned", () => {
    expect(negated("15.00")).toBe("-15.00");
    expect(negated("-7.50")).toBe("7.50");
    expect(negated("0.00")).toBe("0.00");
    expect(negated("-0.00")).toBe("0.00");
  });

  it("unit prices are padded to the currency's decimals and keep any more", () => {
    expect(withDecimals("49.9", 2)).toBe("49.90");
    expect(withDecimals("450", 2)).toBe("450.00");
    expect(withDecimals("33.333", 2)).toBe("33.333");
    expect(withDecimals("1200", 0)).toBe("1200");
  });

  it("rates read '21 %', '5,2 %'; dates DD/MM/YYYY; IBANs in groups of four", () => {
    expect(percent("21%")).toBe(`21${NBSP}%`);
    expect(percent("5.2%")).toBe(`5,2${NBSP}%`);
    expect(date("2026-11-23")).toBe("23/11/2026");
    expect(iban("ES9121000418450200051332")).toBe("ES91 2100 0418 4502 0005 1332");
  });
});

describe("parties", () => {
  it("a Tax ID says what it is: NIF, VAT (with its prefix) or the country's own number", () => {
    expect(taxId({ country: "ES", type: "es_nif", value: "B12345674" })).toBe("NIF B12345674");
    expect(taxId({ country: "DE", type: "eu_vat", value: "DE136695976" })).toBe("NIF-IVA DE136695976");
    expect(taxId({ country: "US", type: "local", value: "123456789" })).toBe("Id. fiscal US 123456789");
  });

  it("an address prints street lines, postal code with city and state, and the country's Spanish name", () => {
    expect(
      addressLines({
        line_1: "500 Market Street",
        line_2: "Suite 200",
        city: "San Francisco",
        postal_code: "94105",
        state: "CA",
        country: "US",
      }),
    ).toEqual(["500 Market Street", "Suite 200", "94105 San Francisco, CA", "Estados Unidos"]);
  });
});

describe("tax wording", () => {
  it("a line's taxes: rate, withholding marked, untaxed treatments named", () => {
    const [consulting] = SPANISH.invoice.lines;
    expect(consulting!.taxes.map(lineTax)).toEqual([`IVA 21${NBSP}%`, `IRPF 15${NBSP}% (ret.)`]);
    expect(EXEMPT.invoice.lines.flatMap((l) => l.taxes.map(lineTax))).toEqual([
      "IVA exento",
      "IVA inversión del sujeto pasivo",
      "IVA no sujeto",
    ]);
  });

  it("legal mentions cite the catalog's reference once per untaxed rule", () => {
    const doubled = [...EXEMPT.invoice.tax_breakdown, ...EXEMPT.invoice.tax_breakdown];
    expect(legalMentions(doubled)).toEqual([
      "Operación exenta (IVA): Ley 37/1992, art. 20.",
      "Inversión del sujeto pasivo (IVA): Ley 37/1992, art. 84.Uno.2º.",
      "Operación no sujeta (IVA): Ley 37/1992, arts. 68 a 70.",
    ]);
    expect(legalMentions(SPANISH.invoice.tax_breakdown)).toEqual([]);
  });

  it("every corrective reason R1-R5 has its meaning", () => {
    expect(Object.keys(CORRECTION_REASON_TEXT)).toEqual(["R1", "R2", "R3", "R4", "R5"]);
  });
});

describe("text runs, in display order from the left", () => {
  it("a right-to-left name inside left-to-right text: its words from right to left", () => {
    expect(runs("Cliente شركة المثال S.A.")).toEqual(["Cliente ", "المثال", " ", "شركة", " S.A."]);
    expect(runs("חברת דוגמה")).toEqual(["דוגמה", " ", "חברת"]);
    expect(runs("Москва")).toEqual(["Москва"]);
  });

  it("a number between right-to-left words keeps its place and reads left to right", () => {
    expect(runs("شركة 123 مثال")).toEqual(["مثال", " ", "123", " ", "شركة"]);
    expect(runs("Calle 5 חברת")).toEqual(["Calle 5 ", "חברת"]);
  });

  it("Hebrew and Arabic side by side are shaped apart; vowel marks stay with their letter", () => {
    expect(runs("חברת شركة")).toEqual(["شركة", " ", "חברת"]);
    expect(runs("مُحَمَّد!")).toEqual(["مُحَمَّد", "!"]);
  });

  it("control characters go, line breaks and tabs become spaces, lone surrogates U+FFFD", () => {
    expect(clean("a\tb\r\nc\u0000d\u0007\ud800")).toBe("a b cd\ufffd");
    expect(paragraphs("uno\r\ndos\n\ntres")).toEqual(["uno", "dos", "", "tres"]);
  });
});
