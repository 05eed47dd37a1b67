import { afterAll, describe, expect, it } from "vitest";
import type { PdfInput } from "../../src/pdf/render";
import { esInput, SPANISH } from "../fixtures/pdf-invoices";
import { iva, line } from "../fixtures/verifactu-invoices";
import { cleanUp, gray, pdfInfo, pdfOf, pdfText, png, SKIP, wordBoxes, zbar } from "./pdf-tools";
import { measureQr } from "./qr-measure";

/**
 * The VERI*FACTU QR's legends, by position and size, read back with poppler (`pdftotext -bbox`)
 * and the symbol located from the pixels (qr-measure.ts). The rule: AEAT, "Características del
 * QR y especificaciones del servicio de cotejo" v0.4.7 §3, and Orden HAC/1177/2024 art. 20.1.b:
 * «QR tributario:» directly above the symbol, «Factura verificable en la sede electrónica de la
 * AEAT» (or «VERI*FACTU») directly below it, both in a font at least as large as the rest of the
 * invoice's data, at least 2 mm blank around the symbol, on the first page only.
 */

afterAll(cleanUp);

const pt = (mm: number) => (mm * 72) / 25.4;
/** AEAT's smallest blank margin around the symbol (QR §3). */
const MIN_MARGIN = pt(2);
/** How far past the quiet zone's edge a legend may sit and still be "directly" there. */
const SLACK = 3;

type Word = ReturnType<typeof wordBoxes>[number];

/** Words grouped into printed lines (same top), top to bottom, each line's box the union. */
function lines(words: Word[]) {
  const rows: Word[][] = [];
  for (const w of [...words].sort((a, b) => a.yMin - b.yMin || a.xMin - b.xMin)) {
    const row = rows.find((r) => Math.abs(r[0]!.yMin - w.yMin) < 1);
    if (row) row.push(w);
    else rows.push([w]);
  }
  return rows.map((row) => ({
    text: row.map((w) => w.word).join(" "),
    xMin: Math.min(...row.map((w) => w.xMin)),
    xMax: Math.max(...row.map((w) => w.xMax)),
    yMin: Math.min(...row.map((w) => w.yMin)),
    yMax: Math.max(...row.map((w) => w.yMax)),
    heights: row.map((w) => w.yMax - w.yMin),
  }));
}

/** The symbol (in points from the page's top-left corner), its quiet zone, and page 1's words. */
async function readBack(input: PdfInput) {
  const path = await pdfOf(input);
  const qr = measureQr(gray(path));
  const symbol = {
    left: pt(qr.leftMm),
    right: pt(qr.leftMm + qr.widthMm),
    top: pt(qr.topMm),
    bottom: pt(qr.topMm + qr.heightMm),
  };
  // ISO/IEC 18004's quiet zone: 4 modules, kept blank by the renderer (src/pdf/qr.ts).
  const quiet = (4 * pt(qr.widthMm)) / qr.modules;
  const words = wordBoxes(path).filter((w) => w.page === 1);
  const beside = (w: Word) => w.xMax > symbol.left - 30 && w.xMin < symbol.right + 30;
  const above = lines(words.filter((w) => beside(w) && w.yMax <= symbol.top));
  const below = lines(words.filter((w) => beside(w) && w.yMin >= symbol.bottom));
  return { path, symbol, quiet, words, above: above.at(-1)!, below };
}

/** A page of line items, then 200 more: the QR block belongs to page 1 only. */
const MULTI_PAGE = esInput({
  number: "INV-0201",
  lines: Array.from({ length: 200 }, (_, i) => ({
    ...line("1", "1.5", iva("general")),
    description: `Artículo número ${i + 1} del pedido`,
  })),
});

describe.skipIf(SKIP)("VERI*FACTU QR legends read back with poppler", () => {
  for (const [name, input] of [
    ["SPANISH", SPANISH],
    ["multi-page", MULTI_PAGE],
  ] as const) {
    it(`${name}: «QR tributario:» sits directly above the symbol, within its width`, async () => {
      const { symbol, quiet, above } = await readBack(input);
      expect(above.text).toBe("QR tributario:");
      const gap = symbol.top - above.yMax;
      expect(gap, `gap ${gap}, quiet zone ${quiet}`).toBeGreaterThanOrEqual(
        Math.max(MIN_MARGIN, quiet) - 0.5,
      );
      expect(gap, `gap ${gap}, quiet zone ${quiet}`).toBeLessThanOrEqual(quiet + SLACK);
      expect(above.xMin).toBeGreaterThanOrEqual(symbol.left);
      expect(above.xMax).toBeLessThanOrEqual(symbol.right);
      expect((above.xMin + above.xMax) / 2).toBeCloseTo((symbol.left + symbol.right) / 2, 0);
    });

    it(`${name}: «Factura verificable en la sede electrónica de la AEAT» and «VERI*FACTU» start directly below it, centred on it`, async () => {
      const { symbol, quiet, below } = await readBack(input);
      const legend = below.slice(0, 3);
      expect(legend.map((l) => l.text).join(" ")).toBe(
        "Factura verificable en la sede electrónica de la AEAT VERI*FACTU",
      );
      const gap = legend[0]!.yMin - symbol.bottom;
      expect(gap, `gap ${gap}, quiet zone ${quiet}`).toBeGreaterThanOrEqual(
        Math.max(MIN_MARGIN, quiet) - 0.5,
      );
      expect(gap, `gap ${gap}, quiet zone ${quiet}`).toBeLessThanOrEqual(quiet + SLACK);
      legend.forEach((l, i) => {
        expect((l.xMin + l.xMax) / 2, l.text).toBeCloseTo((symbol.left + symbol.right) / 2, 0);
        // Stacked without overlapping, each line right under the one before.
        if (i > 0) expect(l.yMin - legend[i - 1]!.yMax, l.text).toBeGreaterThanOrEqual(-0.5);
        if (i > 0) expect(l.yMin - legend[i - 1]!.yMax, l.text).toBeLessThan(SLACK);
      });
    });

    it(`${name}: both legends are at least as large as the body text (a line item's description)`, async () => {
      const { path, above, below } = await readBack(input);
      const first = input.invoice.lines[0]!.description.split(" ")[0]!;
      const body = wordBoxes(path).find((w) => w.word === first)!;
      const bodyHeight = body.yMax - body.yMin;
      expect(bodyHeight).toBeGreaterThan(5);
      for (const l of [above, ...below.slice(0, 3)]) {
        for (const h of l.heights) expect(h, l.text).toBeGreaterThanOrEqual(bodyHeight - 0.01);
      }
    });

    it(`${name}: nothing enters the symbol's quiet zone and the legends overlap nothing`, async () => {
      const { symbol, quiet, words, above, below } = await readBack(input);
      const zone = {
        xMin: symbol.left - quiet,
        xMax: symbol.right + quiet,
        yMin: symbol.top - quiet,
        yMax: symbol.bottom + quiet,
      };
      const meets = (a: Omit<Word, "page" | "word">, b: Omit<Word, "page" | "word">) =>
        Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin) > 0.5 &&
        Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin) > 0.5;
      expect(words.filter((w) => meets(w, zone)).map((w) => w.word)).toEqual([]);
      const legends = [above, ...below.slice(0, 3)];
      const inLegend = (w: Word) =>
        legends.some(
          (l) =>
            w.yMin >= l.yMin - 0.5 &&
            w.yMax <= l.yMax + 0.5 &&
            w.xMin >= l.xMin - 0.5 &&
            w.xMax <= l.xMax + 0.5,
        );
      for (const l of legends) {
        expect(
          words.filter((w) => !inLegend(w) && meets(w, l)).map((w) => w.word),
          l.text,
        ).toEqual([]);
      }
    });

    it(`${name}: the QR still reads back as the invoice's qrUrl`, async () => {
      expect(zbar(png(await pdfOf(input)))).toBe(input.qrUrl);
    });
  }

  it("a multi-page invoice prints the QR and its legends on the first page only", async () => {
    const path = await pdfOf(MULTI_PAGE);
    const pages = Number(pdfInfo(path).Pages);
    expect(pages).toBeGreaterThan(2);
    expect(pdfText(path, { first: 1, last: 1 })).toContain("QR tributario:");
    const rest = pdfText(path, { first: 2, last: pages });
    for (const legend of ["QR tributario", "verificable", "VERI*FACTU"]) expect(rest).not.toContain(legend);
  });
});
