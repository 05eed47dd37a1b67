import {
  fill,
  PDFOperator,
  PDFOperatorNames,
  popGraphicsState,
  pushGraphicsState,
  scale,
  setFillingGrayscaleColor,
  translate,
} from "@pdfme/pdf-lib";
import { encode } from "uqr";
import { BODY_SIZE, leading, MM, type Sheet, type Style } from "./sheet";

/**
 * The VERI*FACTU QR, as AEAT's "Características del QR y especificaciones del servicio de cotejo"
 * (v0.4.7, §2-§3) and Orden HAC/1177/2024 (arts. 20.1.b and 21.1) ask:
 * - ISO/IEC 18004, error correction level M, printed between 30 × 30 and 40 × 40 mm (art. 21.1);
 * - «QR tributario:» directly above the symbol, «Factura verificable en la sede electrónica de la
 *   AEAT» (or «VERI*FACTU»: art. 20.1.b allows either; both are printed) directly below it, both
 *   centred on it and in a font at least as large as the invoice's other data (QR §3);
 * - at least 2 mm blank around the symbol (QR §3): the quiet zone below is wider;
 * - at the start of the invoice, once, on the first page (QR §3; drawn by header.ts).
 * Modules are vector rectangles, crisp at any zoom or print resolution.
 */

/** The symbol's printed side, quiet zone excluded. */
export const QR_SIDE = 35 * MM;
/** White modules around the symbol that no text or line may enter (ISO/IEC 18004: 4). */
export const QUIET_MODULES = 4;
/** Width of the whole block: the symbol, its quiet zone, and room for the legend below it. */
export const QR_BLOCK_WIDTH = 140;

export const QR_LEGEND = { above: "QR tributario:", mark: "VERI*FACTU" } as const;
export const QR_VERIFIABLE = "Factura verificable en la sede electrónica de la AEAT";
/** The legends' style: the body text's size, never smaller (QR §3). */
export const QR_LEGEND_STYLE: Style = { size: BODY_SIZE };
/** «VERI*FACTU» as a mark under the legend: bold, a point larger. */
const MARK_STYLE: Style = { size: BODY_SIZE + 1, bold: true };

/** The symbol's dark modules, row by row (level M, never boosted, so readers and tests agree). */
export function qrModules(url: string): boolean[][] {
  return encode(url, { ecc: "M", boostEcc: false, border: 0 }).data;
}

/**
 * The symbol as PDF operators, in module units from its bottom-left corner: one rectangle per
 * horizontal run of dark modules, filled once, in pure black for the strongest contrast. The
 * coordinates are small integers, written as text: the same bytes as pdf-lib's number objects,
 * without making and formatting hundreds of them per symbol.
 */
function symbolOperators(modules: boolean[][], x: number, bottom: number, module: number): PDFOperator[] {
  const rects: PDFOperator[] = [];
  const n = modules.length;
  modules.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      if (!row[c]) continue;
      let end = c;
      while (row[end + 1]) end++;
      const args = [String(c), String(n - 1 - r), String(end - c + 1), "1"];
      rects.push(PDFOperator.of(PDFOperatorNames.AppendRectangle, args));
      c = end;
    }
  });
  return [
    pushGraphicsState(),
    translate(x, bottom),
    scale(module, module),
    setFillingGrayscaleColor(0),
    ...rects,
    fill(),
    popGraphicsState(),
  ];
}

/**
 * Draws the block with its top-left corner at (`x`, `top`); returns its height. From the top:
 * «QR tributario:», the quiet zone, the symbol, the quiet zone, «Factura verificable en la sede
 * electrónica de la AEAT» (wrapped) and «VERI*FACTU», each centred on the symbol. The legends
 * touch the quiet zone's edge: nothing else sits between them and the symbol.
 */
export function drawQrBlock(sheet: Sheet, url: string, x: number, top: number): number {
  const modules = qrModules(url);
  const module = QR_SIDE / modules.length;
  const quiet = QUIET_MODULES * module;
  let y = top;
  sheet.text(QR_LEGEND.above, x, y, QR_LEGEND_STYLE, "center", QR_BLOCK_WIDTH);
  y -= leading(QR_LEGEND_STYLE.size) + quiet;
  const symbolX = x + (QR_BLOCK_WIDTH - QR_SIDE) / 2;
  sheet.page.pushOperators(...symbolOperators(modules, symbolX, y - QR_SIDE, module));
  y -= QR_SIDE + quiet;
  const legend = sheet.wrap(QR_VERIFIABLE, QR_BLOCK_WIDTH, QR_LEGEND_STYLE);
  y -= sheet.lines(legend, x, y, QR_LEGEND_STYLE, "center", QR_BLOCK_WIDTH);
  sheet.text(QR_LEGEND.mark, x, y, MARK_STYLE, "center", QR_BLOCK_WIDTH);
  y -= leading(MARK_STYLE.size);
  return top - y;
}
