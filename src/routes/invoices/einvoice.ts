import { readEinvoice } from "../../einvoice/read";
import type { EinvoiceFormat } from "../../einvoice/render";
import { idParams, route } from "../../http/route";
import { conditional } from "../../tax/serve";

const DESCRIPTIONS: Record<EinvoiceFormat, [summary: string, description: string]> = {
  ubl: [
    "Download an invoice as UBL (Peppol BIS Billing 3.0)",
    "A UBL 2.1 Invoice, or a CreditNote for a corrective invoice whose total is negative, following EN 16931 and Peppol BIS Billing 3.0. The same invoice always gives the same bytes; `ETag` is their SHA-256.",
  ],
  facturae: [
    "Download an invoice as Facturae 3.2.2",
    "The invoice as an unsigned Facturae 3.2.2 document (FACe needs a XAdES signature, which this service does not add). The same invoice always gives the same bytes; `ETag` is their SHA-256.",
  ],
};

/** `GET /v1/invoices/{id}/ubl` and `/facturae`: the document from the renderer Worker, with its ETag (304 on a match). */
const einvoiceRoute = (format: EinvoiceFormat) =>
  route({
    method: "get",
    path: `/v1/invoices/:id/${format}`,
    ...(!globalThis.OMIT_API_DOCS && {
      tag: "Invoices",
      summary: DESCRIPTIONS[format][0],
      responses: {
        200: { description: DESCRIPTIONS[format][1], contentType: "application/xml" },
        304: { description: "Not modified (`If-None-Match` matched the ETag)." },
      },
      errors: ["invoice_not_issued", "einvoice_missing_data"],
    }),
    request: { params: idParams },
    middleware: [conditional],
    handler: async (c, { params }) => {
      const doc = await readEinvoice(c.get("db"), c.env, c.get("caller"), params.id, format);
      return c.body(doc.xml, 200, {
        "Content-Type": "application/xml; charset=utf-8",
        "Content-Disposition": `inline; filename="${doc.filename}"`,
        ETag: doc.etag,
      });
    },
  });

export const retrieveInvoiceUblRoute = einvoiceRoute("ubl");
export const retrieveInvoiceFacturaeRoute = einvoiceRoute("facturae");
