import { listBody } from "../../http/pagination";
import { route } from "../../http/route";
import { listOf } from "../../http/schemas";
import { listInvoices } from "../../invoices/list";
import { invoiceObject, listInvoicesQuery } from "../../invoices/schemas";
import { serializeInvoice } from "../../invoices/serialize";

export const listInvoicesRoute = route({
  method: "get",
  path: "/v1/invoices",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Invoices",
    summary: "List invoices",
    responses: {
      200: {
        description:
          "Invoices, newest first; with an `issue_date[gte]` or `issue_date[lte]` filter, newest issue date first, then newest first.",
        schema: listOf(invoiceObject),
      },
    },
  }),
  request: { query: listInvoicesQuery },
  handler: async (c, { query }) =>
    c.json(
      listBody("/v1/invoices", await listInvoices(c.get("db"), c.get("caller"), query), serializeInvoice),
    ),
});
