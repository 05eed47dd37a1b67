import { readFileSync } from "node:fs";
import type { PdfAssets } from "../../src/pdf/render";

/**
 * The fonts the PDF Worker embeds (DejaVu Sans from the `dejavu-fonts-ttf` package), read from
 * node_modules as Node sees them. Shared by the Node tests and scripts/render-sample-pdf.ts.
 */
const ttf = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../node_modules/dejavu-fonts-ttf/ttf/${name}`, import.meta.url)));

export const FONTS: PdfAssets = { font: ttf("DejaVuSans.ttf"), bold: ttf("DejaVuSans-Bold.ttf") };
