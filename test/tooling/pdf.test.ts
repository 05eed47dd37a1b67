import { decodePDFRawStream, PDFDocument, PDFRawStream } from "@pdfme/pdf-lib";
import { encode } from "uqr";
import { afterAll, describe, expect, it } from "vitest";
import type { PdfInput } from "../../src/pdf/render";
import { renderInvoicePdf } from "../../src/pdf/render";
import { resolveRule } from "../../src/tax/resolve";
import {
  CORRECTIVE,
  EU_REVERSE_CHARGE,
  EXEMPT,
  GLOBAL,
  MULTISCRIPT,
  SCRIPTS,
  SIMPLIFIED,
  SPANISH,
} from "../fixtures/pdf-invoices";
import { FONTS } from "./pdf-fonts";
import {
  cleanUp,
  gray,
  layoutText,
  missingTools,
  pdfFonts,
  pdfInfo,
  pdfOf,
  pdfText,
  png,
  SKIP,
  wordBoxes,
  zbar,
} from "./pdf-tools";
import { measureQr } from "./qr-measure";

/**
 * The rendered invoice read back as a person or a program would: its text with poppler's
 * pdftotext, its QR with zbar from a 300 dpi rendering, the QR's size and error correction
 * level from the pixels. Runs in Node: workerd cannot start programs. pdf-layout.test.ts checks
 * where things are drawn.
 */

afterAll(cleanUp);

const textOf = async (input: PdfInput) => pdfText(await pdfOf(input));
const layoutOf = async (input: PdfInput) => layoutText(await pdfOf(input));
const NBSP = /\u00a0/g;
const mmToPt = (mm: number) => (mm * 72) / 25.4;

/** The text of every run the renderer could not draw with its font: its ActualText spans. */
async function replacedRuns(input: PdfInput): Promise<string[]> {
  const doc = await PDFDocument.load(await renderInvoicePdf(input, FONTS));
  const runs: string[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const content = new TextDecoder("latin1").decode(decodePDFRawStream(object).decode());
    for (const [, hex] of content.matchAll(/\/ActualText <([0-9A-Fa-f]+)>/g)) {
      const bytes = Uint8Array.from(hex!.match(/../g)!, (byte) => Number.parseInt(byte, 16));
      runs.push(new TextDecoder("utf-16be").decode(bytes));
    }
  }
  return runs;
}

describe.skipIf(SKIP)("invoice PDF read back with poppler and zbar", () => {
  it("the tools are installed (CI installs poppler-utils and zbar-tools)", () => {
    expect(missingTools(), "apt-get install -y poppler-utils zbar-tools").toEqual([]);
  });

  it("an ordinary invoice shows its number, series, dates, both parties with Tax IDs and addresses", async () => {
    const layout = await layoutOf(SPANISH);
    for (const expected of [
      "Factura",
      "Número de factura INV-0042",
      "Serie INV",
      "Fecha de expedición 23/11/2026",
      "Fecha de operación 15/11/2026",
      "Vencimiento 23/12/2026",
      "Moneda EUR",
    ]) {
      expect(layout, layout).toContain(expected);
    }
    // The parties sit side by side: the plain text reads each column in turn.
    const text = await textOf(SPANISH);
    for (const expected of [
      "EMISOR DESTINATARIO Ferretería Núñez S.L.",
      "NIF B12345674",
      "Distribuciones Cliente & Hijos S.A.",
      "NIF A58818501",
      "Calle Mayor 1",
      "28013 Madrid",
      "España",
      "facturas@cliente.example",
    ]) {
      expect(text, text).toContain(expected);
    }
  });

  it("an ordinary invoice shows each line and every tax row (IVA 21 % and 10 %, IRPF withheld, recargo) with base, rate and quota", async () => {
    const text = await layoutOf(SPANISH);
    for (const expected of [
      "Descripción Cantidad Precio unitario Impuestos Importe",
      "Consultoría de implantación del ERP (3 3 450,00 € IVA 21 % 1.350,00 €\njornadas) IRPF 15 % (ret.)",
      "Material de ferretería para reventa: 40 2,35 € IVA 21 % 94,00 €\ntornillería y anclajes Recargo equiv. 5,2 %",
      "Servicio de catering para la jornada de 1 180,00 € IVA 10 % 180,00 €\nformación Recargo equiv. 1,4 %",
      "Desplazamiento 1 60,00 € IVA 21 % 60,00 €",
      "Impuesto Base imponible Tipo Cuota",
      "IVA 1.504,00 € 21 % 315,84 €",
      "IRPF (retención) 1.350,00 € 15 % -202,50 €",
      "Recargo de equivalencia 94,00 € 5,2 % 4,89 €",
      "IVA 180,00 € 10 % 18,00 €",
      "Recargo de equivalencia 180,00 € 1,4 % 2,52 €",
    ]) {
      expect(text, text).toContain(expected);
    }
  });

  it("the totals are the invoice's amounts in Spanish format: subtotal, taxes added, withheld, total, payable", async () => {
    const text = await layoutOf(SPANISH);
    const { invoice } = SPANISH;
    expect([invoice.subtotal, invoice.total_tax_added, invoice.total_tax_withheld, invoice.total]).toEqual([
      "1684.00",
      "341.25",
      "202.50",
      "2025.25",
    ]);
    expect(text).toContain("Subtotal 1.684,00 €");
    expect(text).toContain("Impuestos repercutidos 341,25 €");
    expect(text).toContain("Retenciones -202,50 €");
    expect(text).toContain("Total factura 2.025,25 €");
    expect(text).toContain("Importe a pagar 1.822,75 €");
  });

  it("payment instructions show the due date, beneficiary, IBAN, BIC and the invoice number as reference; notes keep their lines", async () => {
    const text = await textOf(SPANISH);
    expect(text).toContain("Vencimiento: 23/12/2026");
    expect(text).toContain("Transferencia bancaria Beneficiario: Ferretería Núñez S.L.");
    expect(text).toContain("IBAN: ES91 2100 0418 4502 0005 1332");
    expect(text).toContain("BIC: CAIXESBBXXX");
    expect(text).toContain("Concepto (referencia): INV-0042");
    expect(text).toContain("Notas Gracias por su confianza. Pago a 30 días desde la fecha de la factura.");
  });

  it("the QR reads back as the invoice's qrUrl exactly", async () => {
    for (const input of [SPANISH, SIMPLIFIED, CORRECTIVE, EXEMPT, MULTISCRIPT]) {
      expect(zbar(png(await pdfOf(input))), String(input.invoice.number)).toBe(input.qrUrl);
    }
  });

  it("the QR is printed 30-40 mm wide and high, at error correction level M, near the top of the first page", async () => {
    const qr = measureQr(gray(await pdfOf(SPANISH)));
    const expected = encode(SPANISH.qrUrl, { ecc: "M", border: 0 });
    expect(qr.formatValid, JSON.stringify(qr)).toBe(true);
    expect(qr.ecLevel).toBe("M");
    // The mask read from the pixels is the encoder's: the format bits were really read.
    expect([qr.mask, qr.modules]).toEqual([expected.maskPattern, expected.size]);
    expect(qr.widthMm).toBeGreaterThanOrEqual(30);
    expect(qr.widthMm).toBeLessThanOrEqual(40);
    expect(qr.heightMm).toBeCloseTo(qr.widthMm, 0);
    expect(qr.widthMm).toBeCloseTo(35, 0);
    expect(qr.topMm).toBeLessThan(40);
  });

  // Positions and sizes in detail: pdf-qr-legends.test.ts.
  it("the QR has 'QR tributario:' above it and 'Factura verificable en la sede electrónica de la AEAT' and 'VERI*FACTU' below", async () => {
    const path = await pdfOf(SPANISH);
    const qr = measureQr(gray(path));
    const [top, bottom] = [mmToPt(qr.topMm), mmToPt(qr.topMm + qr.heightMm)];
    const words = wordBoxes(path).filter((w) => w.page === 1 && w.xMin >= mmToPt(qr.leftMm) - 30);
    const find = (word: string) => words.find((w) => w.word === word);
    expect(find("tributario:")!.yMax).toBeLessThan(top);
    expect(find("VERI*FACTU")!.yMin).toBeGreaterThan(bottom);
    expect(find("verificable")!.yMin).toBeGreaterThan(bottom);
    expect(find("AEAT")!.yMin).toBeGreaterThan(bottom);
    expect(await textOf(SPANISH)).toContain("Factura verificable en la sede electrónica de la AEAT");
  });

  it("exempt, reverse-charge and not-subject rows print their wording and the catalog's legal reference", async () => {
    const text = await textOf(EXEMPT);
    const ref = (rule: string) => EXEMPT.invoice.tax_breakdown.find((r) => r.rule === rule)!.legal_reference;
    expect(text).toContain(`Operación exenta (IVA): ${ref("exempt_art_20")}.`);
    expect(text).toContain(`Inversión del sujeto pasivo (IVA): ${ref("reverse_charge")}.`);
    expect(ref("reverse_charge")).toBe("Ley 37/1992, art. 84.Uno.2º");
    expect(text).toContain(`Operación no sujeta (IVA): ${ref("not_subject_location")}.`);
    expect(await layoutOf(EXEMPT)).toContain("IVA exento 900,00 € — —");
  });

  it("services to an EU business say 'Inversión del sujeto pasivo' with the catalog's art. 69 reference and the customer's VAT number", async () => {
    const text = await textOf(EU_REVERSE_CHARGE);
    const rule = resolveRule("es", "iva", "reverse_charge_eu", "2026-11-23");
    expect(rule.ok).toBe(true);
    const reference = rule.ok ? rule.version.legal_reference! : "";
    expect(reference).toContain("art. 69");
    expect(text).toContain(`Inversión del sujeto pasivo (IVA): ${reference}`);
    expect(text).toContain("NIF-IVA DE136695976");
  });

  it("a corrective names the corrected invoice and its date, the reason's meaning, and shows negative amounts", async () => {
    const text = await textOf(CORRECTIVE);
    expect(text).toContain("Factura rectificativa");
    expect(await layoutOf(CORRECTIVE)).toContain("Rectifica a INV-0042 de 20/11/2026");
    expect(text).toContain(
      "Rectifica la factura INV-0042 de 20/11/2026. Motivo R1: Error fundado en derecho y art. 80 Uno, Dos y Seis LIVA.",
    );
    expect(await layoutOf(CORRECTIVE)).toContain(
      "Consultoría: una jornada no realizada 1 -450,00 € IVA 21 % -450,00 €",
    );
    expect(text).toContain("Total factura -544,50 €");
    expect(text).toContain("Importe a pagar -477,00 €");
  });

  it("each corrective reason R1-R5 prints its meaning", async () => {
    const meanings = {
      R1: "Error fundado en derecho y art. 80 Uno, Dos y Seis LIVA",
      R2: "Art. 80.Tres LIVA (concurso)",
      R3: "Art. 80.Cuatro LIVA (créditos incobrables)",
      R4: "Resto de causas",
      R5: "Rectificativa de factura simplificada",
    } as const;
    for (const [reason, meaning] of Object.entries(meanings)) {
      const input: PdfInput = {
        ...CORRECTIVE,
        invoice: { ...CORRECTIVE.invoice, corrects: { invoice: "inv_x", reason: reason as "R1" } },
      };
      expect(await textOf(input)).toContain(`Motivo ${reason}: ${meaning}.`);
    }
  });

  it("a simplified invoice without a customer has no recipient block", async () => {
    const text = await textOf(SIMPLIFIED);
    expect(text).toContain("Factura simplificada");
    expect(text).toContain("SIM-0108");
    expect(text).not.toContain("DESTINATARIO");
    expect(text).toContain("Importe a pagar 60,38 €");
  });

  it("a global invoice shows its custom taxes and currency code, and has no QR", async () => {
    const path = await pdfOf(GLOBAL);
    const text = layoutText(path);
    expect(text).toContain("Strategy workshop 2 1.500,00 USD GST 10 % 3.000,00 USD\nWHT 5 % (ret.)");
    expect(text).toContain("Travel expenses 1 320,50 USD GST 10 % 320,50 USD");
    expect(text).toContain("WHT (retención) 3.000,00 USD 5 % -150,00 USD");
    expect(text).toContain("Importe a pagar 3.502,55 USD");
    expect(text).toContain("Id. fiscal AU 51824753556");
    expect(text).not.toContain("QR tributario");
    expect(zbar(png(path))).toBeNull();
  });

  it("names in Latin-extended, Greek, Cyrillic, Arabic and Hebrew are drawn by the font; CJK and emoji it lacks still extract as written", async () => {
    const text = await textOf(MULTISCRIPT);
    for (const [script, name] of Object.entries(SCRIPTS)) {
      expect(text, `${script}\n${text}`).toContain(name.replace(NBSP, " "));
    }
    // A run with characters the font lacks is drawn with a replacement glyph inside an
    // ActualText span (which is what extraction reads): only the CJK and emoji runs are.
    const replaced = await replacedRuns(MULTISCRIPT);
    expect(replaced.length).toBeGreaterThan(0);
    for (const run of replaced)
      expect(run).toMatch(/[\p{Script=Han}\p{Script=Hangul}\p{Extended_Pictographic}]/u);
    const drawn = [SCRIPTS.latin, SCRIPTS.greek, SCRIPTS.cyrillic, SCRIPTS.arabic, SCRIPTS.hebrew];
    for (const word of drawn.flatMap((name) => name.split(" ")).filter((w) => /[^\x00-\x7f]/.test(w))) {
      expect(replaced.join("\n")).not.toContain(word);
    }
  });

  it("fonts are embedded as subsets with a Unicode map, so a many-script invoice stays small", async () => {
    const path = await pdfOf(MULTISCRIPT);
    const fonts = pdfFonts(path);
    expect(fonts.map((f) => f.name).sort()).toEqual(["INVAPB+DejaVuSans-Bold", "INVAPR+DejaVuSans"]);
    for (const font of fonts) expect([font.emb, font.sub, font.uni]).toEqual(["yes", "yes", "yes"]);
    expect(FONTS.font.length).toBeGreaterThan(700_000);
    expect((await renderInvoicePdf(MULTISCRIPT, FONTS)).length).toBeLessThan(80_000);
  });

  it("the PDF is dated by the invoice's created_at and produced by invoicing-api", async () => {
    const info = pdfInfo(await pdfOf(SPANISH));
    expect(info.Title).toBe("Factura INV-0042");
    expect(info.Producer).toBe("invoicing-api");
    expect(info.CreationDate).toBe("2026-11-23T09:00:00Z");
    expect(info.ModDate).toBe("2026-11-23T09:00:00Z");
    expect(info["Page size"]).toMatch(/^595\.\d+ x 841\.\d+ pts \(A4\)/);
  });
});
