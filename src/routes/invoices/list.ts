import { and, eq } from "drizzle-orm";
import { invoices, type ServedInvoiceRow } from "../../db/schema";
import { listOf } from "../../lib/api-schemas";
import { listBody, paginate } from "../../lib/pagination";
import { route } from "../../lib/route";
import { ownedBy } from "../../lib/scope";
import { SERVED_COLUMNS } from "./find";
import { invoiceObject, listInvoicesQuery } from "./schemas";
import { serializeInvoice } from "./serialize";

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
