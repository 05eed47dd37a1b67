import { idParams, route } from "../../http/route";
import { findInvoice } from "../../invoices/find";
import { invoiceObject } from "../../invoices/schemas";
import { serializeInvoice } from "../../invoices/serialize";

export const retrieveInvoiceRoute = route({
  method: "get",
  path: "/v1/invoices/:id",
  tag: "Invoices",
  summary: "Retrieve an invoice",
  request: { params: idParams },
  responses: { 200: { description: "The invoice.", schema: invoiceObject } },
  handler: async (c, { params }) =>
    c.json(serializeInvoice(await findInvoice(c.get("db"), c.get("caller"), params.id))),
});
