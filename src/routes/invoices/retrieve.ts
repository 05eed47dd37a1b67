import { idParams, route } from "../../http/route";
import { findInvoice } from "../../invoices/find";
import { invoiceObject } from "../../invoices/schemas";
import { serializeInvoice } from "../../invoices/serialize";

export const retrieveInvoiceRoute = route({
  method: "get",
  path: "/v1/invoices/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Invoices",
    summary: "Retrieve an invoice",
    responses: { 200: { description: "The invoice.", schema: invoiceObject } },
  }),
  request: { params: idParams },
  handler: async (c, { params }) =>
    c.json(serializeInvoice(await findInvoice(c.get("db"), c.get("caller"), params.id))),
});
