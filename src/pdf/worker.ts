import regular from "dejavu-fonts-ttf/ttf/DejaVuSans.ttf";
import bold from "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf";
import { type EinvoiceInput, einvoiceResponse } from "../einvoice/render";
import { type DeclarationInput, declarationDocument } from "../verifactu/declaration-document";
import { renderDeclarationPdf } from "./declaration";
import { renderInvoicePdf } from "./render";
import type { PdfInput } from "./types";

// The renderer Worker (wrangler.pdf.toml). The API reaches it through its PDF_RENDERER service
// binding only: `POST /render` with a PdfInput as JSON answers the invoice's PDF; `POST
// /declaration` with a DeclarationInput answers the declaración responsable, as JSON or, with
// `Accept: application/pdf`, as a PDF (its text lives here: the API Worker has no bundle room);
// `POST /ubl` and `POST /facturae` with an EinvoiceInput answer the structured e-invoice.
// No bindings, no state.

// A Data module is an ArrayBuffer (fonts.d.ts); the test project's Vite types call every
// "*.ttf" a URL string, hence `unknown` here.
const bytes = (module: unknown) => new Uint8Array(module as ArrayBuffer);
const ASSETS = { font: bytes(regular), bold: bytes(bold) };
const PDF = { "Content-Type": "application/pdf" };

async function declaration(request: Request): Promise<Response> {
  const document = declarationDocument((await request.json()) as DeclarationInput);
  if (request.headers.get("Accept") !== "application/pdf") return Response.json(document);
  return new Response(await renderDeclarationPdf(document, ASSETS), { headers: PDF });
}

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (!["/render", "/declaration", "/ubl", "/facturae"].includes(pathname))
      return new Response("Not found", { status: 404 });
    if (request.method !== "POST") return new Response("Method not allowed", { status: 405 });
    if (pathname === "/declaration") return declaration(request);
    if (pathname === "/ubl" || pathname === "/facturae")
      return einvoiceResponse(
        pathname === "/ubl" ? "ubl" : "facturae",
        (await request.json()) as EinvoiceInput,
      );
    const input = (await request.json()) as PdfInput;
    const pdf = await renderInvoicePdf(input, ASSETS);
    return new Response(pdf, { headers: PDF });
  },
} satisfies ExportedHandler;
