import { idParams, route } from "../../lib/route";
import { findInvoice } from "./find";
import { invoiceObject } from "./schemas";
import { serializeInvoice } from "./serialize";

export const retrieveInvoice = route({
  method: "get",
  path: "/v1/invoices/:id",
  tag: "Invoices",
  summary: "Retrieve an invoice",
  request: { params: idParams },
  responses: { 200: { description: "The invoice.", schema: invoiceObject } },
  handler: async (c, { params }) =>
    c.json(serializeInvoice(await findInvoice(c.get("db"), c.get("caller"), params.id))),
});
