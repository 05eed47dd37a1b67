// CPU per invoice PDF render: the README's sample invoice (test/fixtures/pdf-invoices.ts) drawn
// N times in Node with the renderer the PDF Worker runs (src/pdf/render.ts), after one warm-up
// render, and checked to give the same bytes every time.
//
//   npm run bench:pdf             # 30 renders
//   npm run bench:pdf -- 100
import { renderInvoicePdf } from "../src/pdf/render";
import { SPANISH } from "../test/fixtures/pdf-invoices";
import { FONTS } from "../test/tooling/pdf-fonts";

const N = Number(process.argv[2] ?? 30);
const first = await renderInvoicePdf(SPANISH, FONTS);
let same = true;
const started = performance.now();
for (let i = 0; i < N; i++) {
  const pdf = await renderInvoicePdf(SPANISH, FONTS);
  same &&= Buffer.from(pdf).equals(Buffer.from(first));
}
const ms = (performance.now() - started) / N;
console.log(`${N} renders: ${ms.toFixed(1)} ms each, ${first.length} bytes, identical: ${same}`);
