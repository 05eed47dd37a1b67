// Renders the README's sample invoice (test/fixtures/pdf-invoices.ts, SPANISH) and writes its first
// page as a PNG at 150 dpi with poppler's pdftoppm (Debian: poppler-utils):
//
//   npx tsx scripts/render-sample-pdf.ts                 # docs/invoice-sample.png
//   npx tsx scripts/render-sample-pdf.ts --pdf out.pdf   # also keeps the PDF
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderInvoicePdf } from "../src/pdf/render";
import { SPANISH } from "../test/fixtures/pdf-invoices";
import { FONTS } from "../test/tooling/pdf-fonts";

const out = new URL("../docs/invoice-sample", import.meta.url).pathname;
const pdfArg = process.argv.indexOf("--pdf");
const dir = mkdtempSync(join(tmpdir(), "invoice-sample-"));
const pdf = pdfArg > 0 ? process.argv[pdfArg + 1]! : join(dir, "invoice.pdf");

writeFileSync(pdf, await renderInvoicePdf(SPANISH, FONTS));
const result = spawnSync(
  "pdftoppm",
  ["-r", "150", "-png", "-gray", "-f", "1", "-l", "1", "-singlefile", pdf, out],
  {
    encoding: "utf8",
  },
);
rmSync(dir, { recursive: true, force: true });
if (result.error || result.status !== 0) {
  console.error(`pdftoppm failed (apt-get install -y poppler-utils): ${result.error ?? result.stderr}`);
  process.exit(1);
}
console.log(`${out}.png`);
