import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";
import { readInvoicePdf } from "../../invoices/pdf/read";

export const retrieveInvoicePdfRoute = route({
  method: "get",
  path: "/v1/invoices/:id/pdf",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Invoices",
    summary: "Download an invoice's PDF",
    responses: {
      200: {
        description:
          "The invoice as a PDF: the stored file, or rendered now (and stored) when the one generated after issuance is not there yet.",
        contentType: "application/pdf",
      },
    },
  }),
  request: { params: idParams },
  handler: async (c, { params }) => {
    const { filename, body } = await readInvoicePdf(writerOf(c), c.get("caller"), params.id);
    return c.body(body, 200, {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${filename}"`,
    });
  },
});
