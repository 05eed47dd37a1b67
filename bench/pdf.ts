// CPU per invoice PDF render in Node with the renderer the PDF Worker runs (src/pdf/render.ts),
// after one warm-up render, checked to give the same bytes every time: the README's sample
// invoice (test/fixtures/pdf-invoices.ts) N times, and the wrapping worst case (200 lines of
// 1,000-character words, LONG_WORDS) N / 10 times.
//
//   npm run bench:pdf             # 30 renders (and 3 of the worst case)
//   npm run bench:pdf -- 100
import { type PdfInput, renderInvoicePdf } from "../src/pdf/render";
import { LONG_WORDS, SPANISH } from "../test/fixtures/pdf-invoices";
import { FONTS } from "../test/tooling/pdf-fonts";

const N = Number(process.argv[2] ?? 30);

async function bench(name: string, input: PdfInput, n: number) {
  const first = await renderInvoicePdf(input, FONTS);
  let same = true;
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const pdf = await renderInvoicePdf(input, FONTS);
    same &&= Buffer.from(pdf).equals(Buffer.from(first));
  }
  const ms = (performance.now() - started) / n;
  console.log(`${name}: ${n} renders, ${ms.toFixed(1)} ms each, ${first.length} bytes, identical: ${same}`);
}

await bench("sample invoice", SPANISH, N);
await bench("200 lines of 1,000-character words", LONG_WORDS, Math.max(1, Math.round(N / 10)));
