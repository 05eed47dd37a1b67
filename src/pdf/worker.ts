import regular from "dejavu-fonts-ttf/ttf/DejaVuSans.ttf";
import bold from "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf";
import { renderInvoicePdf } from "./render";
import type { PdfInput } from "./types";

// The renderer Worker (wrangler.pdf.toml). The API reaches it through its PDF_RENDERER service
// binding only: `POST /render` with a PdfInput as JSON answers the PDF. No bindings, no state.

// A Data module is an ArrayBuffer (fonts.d.ts); the test project's Vite types call every
// "*.ttf" a URL string, hence `unknown` here.
const bytes = (module: unknown) => new Uint8Array(module as ArrayBuffer);
const ASSETS = { font: bytes(regular), bold: bytes(bold) };

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname !== "/render") return new Response("Not found", { status: 404 });
    if (request.method !== "POST") return new Response("Method not allowed", { status: 405 });
    const input = (await request.json()) as PdfInput;
    const pdf = await renderInvoicePdf(input, ASSETS);
    return new Response(pdf, { headers: { "Content-Type": "application/pdf" } });
  },
} satisfies ExportedHandler;
