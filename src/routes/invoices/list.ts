import { and, eq } from "drizzle-orm";
import { invoices, type ServedInvoiceRow } from "../../db/schema";
import { listOf } from "../../http/schemas";
import { listBody, paginate } from "../../http/pagination";
import { route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { SERVED_COLUMNS } from "../../invoices/find";
import { invoiceObject, listInvoicesQuery } from "../../invoices/schemas";
import { serializeInvoice } from "../../invoices/serialize";

export const listInvoices = route({
  method: "get",
  path: "/v1/invoices",
  tag: "Invoices",
  summary: "List invoices",
  request: { query: listInvoicesQuery },
  responses: { 200: { description: "Invoices, newest first.", schema: listOf(invoiceObject) } },
  handler: async (c, { query }) => {
    const where = and(
      ownedBy(invoices, c.get("caller")),
      query.customer === undefined ? undefined : eq(invoices.customerId, query.customer),
      query.type === undefined ? undefined : eq(invoices.type, query.type),
      query.series === undefined ? undefined : eq(invoices.series, query.series),
    );
    const page = await paginate<typeof invoices, ServedInvoiceRow>(
      c.get("db"),
      invoices,
      "invoice",
      where,
      query,
      SERVED_COLUMNS,
    );
    return c.json(listBody("/v1/invoices", page, serializeInvoice));
  },
});
