import { writerOf } from "../../events/writer";
import { generatePdf, pdfKey } from "../../invoices/pdf/generate";
import { idParams, route } from "../../http/route";
import { findInvoice } from "../../invoices/find";

export const retrieveInvoicePdf = route({
  method: "get",
  path: "/v1/invoices/:id/pdf",
  tag: "Invoices",
  summary: "Download an invoice's PDF",
  request: { params: idParams },
  responses: {
    200: {
      description:
        "The invoice as a PDF: the stored file, or rendered now (and stored) when the one generated after issuance is not there yet.",
      contentType: "application/pdf",
    },
  },
  handler: async (c, { params }) => {
    const row = await findInvoice(c.get("db"), c.get("caller"), params.id);
    const stored = await c.env.PDFS.get(pdfKey(row));
    const headers = {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${row.number}.pdf"`,
    };
    if (stored) return c.body(stored.body, 200, headers);
    return c.body((await generatePdf(writerOf(c), row)) as Uint8Array<ArrayBuffer>, 200, headers);
  },
});
