import regular from "dejavu-fonts-ttf/ttf/DejaVuSans.ttf";
import bold from "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf";
import type { ChainRecord } from "../contracts/verifactu-record";
import { type EinvoiceInput, einvoiceResponse } from "../einvoice/render";
import { type DeclarationInput, declarationDocument } from "../verifactu/declaration-document";
import { registrationXml } from "../verifactu/xml";
import { renderDeclarationPdf } from "./declaration";
import { renderInvoicePdf } from "./render";
import type { PdfInput } from "./types";

// The renderer Worker (wrangler.pdf.toml). The API reaches it through its PDF_RENDERER service
// binding only: `POST /render` with a PdfInput as JSON answers the invoice's PDF; `POST
// /declaration` with a DeclarationInput answers the declaración responsable, as JSON or, with
// `Accept: application/pdf`, as a PDF (its text lives here: the API Worker has no bundle room);
// `POST /ubl` and `POST /facturae` with an EinvoiceInput answer the structured e-invoice;
// `POST /verifactu-xml` with `{record, name}` answers a VERI*FACTU record's XML document.
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

const XML = { "Content-Type": "application/xml; charset=utf-8" };

const PATHS: Record<string, (request: Request) => Promise<Response>> = {
  "/render": async (request) =>
    new Response(await renderInvoicePdf((await request.json()) as PdfInput, ASSETS), { headers: PDF }),
  "/declaration": declaration,
  "/ubl": async (request) => einvoiceResponse("ubl", (await request.json()) as EinvoiceInput),
  "/facturae": async (request) => einvoiceResponse("facturae", (await request.json()) as EinvoiceInput),
  "/verifactu-xml": async (request) => {
    const { record, name } = (await request.json()) as { record: ChainRecord; name?: string };
    return new Response(registrationXml(record, name), { headers: XML });
  },
};

export default {
  async fetch(request) {
    const handle = PATHS[new URL(request.url).pathname];
    if (!handle) return new Response("Not found", { status: 404 });
    if (request.method !== "POST") return new Response("Method not allowed", { status: 405 });
    return handle(request);
  },
} satisfies ExportedHandler;
