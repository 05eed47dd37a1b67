import {
  fill,
  type PDFOperator,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  scale,
  setFillingGrayscaleColor,
  translate,
} from "@pdfme/pdf-lib";
import { encode } from "uqr";
import { leading, MM, type Sheet } from "./sheet";

/**
 * The VERI*FACTU QR (AEAT, "Características del QR y especificaciones del servicio de cotejo"):
 * ISO/IEC 18004, error correction level M, printed between 30 × 30 and 40 × 40 mm, "QR
 * tributario:" above it and "VERI*FACTU" / "Factura verificable en la sede electrónica de la
 * AEAT" with it. Modules are vector rectangles, crisp at any zoom or print resolution.
 */

/** The symbol's printed side, quiet zone excluded. */
export const QR_SIDE = 35 * MM;
/** White modules around the symbol that no text or line may enter (ISO/IEC 18004: 4). */
export const QUIET_MODULES = 4;
/** Width of the whole block: the symbol, its quiet zone, and room for the legend. */
export const QR_BLOCK_WIDTH = 140;

export const QR_LEGEND = { above: "QR tributario:", mark: "VERI*FACTU" } as const;
export const QR_VERIFIABLE = "Factura verificable en la sede electrónica de la AEAT";

/** The symbol's dark modules, row by row (level M, never boosted, so readers and tests agree). */
export function qrModules(url: string): boolean[][] {
  return encode(url, { ecc: "M", boostEcc: false, border: 0 }).data;
}

/**
 * The symbol as PDF operators, in module units from its bottom-left corner: one rectangle per
 * horizontal run of dark modules, filled once, in pure black for the strongest contrast.
 */
function symbolOperators(modules: boolean[][], x: number, bottom: number, module: number): PDFOperator[] {
  const rects: PDFOperator[] = [];
  const n = modules.length;
  modules.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      if (!row[c]) continue;
      let end = c;
      while (row[end + 1]) end++;
      rects.push(rectangle(c, n - 1 - r, end - c + 1, 1));
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

/** Draws the block with its top-left corner at (`x`, `top`); returns its height. */
export function drawQrBlock(sheet: Sheet, url: string, x: number, top: number): number {
  const modules = qrModules(url);
  const module = QR_SIDE / modules.length;
  const quiet = QUIET_MODULES * module;
  const small = { size: 8 };
  const mark = { size: 10, bold: true };
  let y = top;
  sheet.text(QR_LEGEND.above, x, y, small, "center", QR_BLOCK_WIDTH);
  y -= leading(small.size);
  sheet.text(QR_LEGEND.mark, x, y, mark, "center", QR_BLOCK_WIDTH);
  y -= leading(mark.size) + quiet;
  const symbolX = x + (QR_BLOCK_WIDTH - QR_SIDE) / 2;
  sheet.page.pushOperators(...symbolOperators(modules, symbolX, y - QR_SIDE, module));
  y -= QR_SIDE + quiet;
  y -= sheet.lines(sheet.wrap(QR_VERIFIABLE, QR_BLOCK_WIDTH, small), x, y, small, "center", QR_BLOCK_WIDTH);
  return top - y;
}
