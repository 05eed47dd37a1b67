import { type CustomerRow, customers } from "../../db/schema";
import { writeWithEvents } from "../../events/write";
import { writerOf } from "../../events/writer";
import { nowIso } from "../../lib/clock";
import { isUniqueViolation } from "../../db/errors";
import { ApiError } from "../../http/errors";
import { newId } from "../../lib/ids";
import { addressColumns, newTaxIdColumns } from "../../party/address";
import { route } from "../../http/route";
import { insertTaxId, queueAfterWrite, taxIdRow, verifiesFor } from "../../tax-ids/write";
import { generateInvoicePrefix, prefixTaken } from "../../customers/fields";
import { createCustomerBody, customerObject } from "../../customers/schemas";
import { serializeCustomer } from "../../customers/serialize";

const GENERATED_PREFIX_ATTEMPTS = 5;

export const createCustomer = route({
  method: "post",
  path: "/v1/customers",
  tag: "Customers",
  summary: "Create a customer",
  request: { json: createCustomerBody },
  responses: { 201: { description: "The new customer.", schema: customerObject } },
  errors: ["invoice_prefix_taken"],
  handler: async (c, { json: body }) => {
    const caller = c.get("caller");
    const db = c.get("db");
    const now = nowIso();
    const taxId = newTaxIdColumns(body.tax_id, verifiesFor(caller, c.env));
    const address = addressColumns(body.address ?? null, null);
    const row: CustomerRow = {
      id: newId("customer"),
      accountId: caller.accountId,
      live: caller.live,
      name: body.name,
      invoicePrefix: body.invoice_prefix ?? "",
      email: body.email ?? null,
      phone: body.phone ?? null,
      ...address,
      ...taxId,
      filterCountry: address.addressCountry ?? taxId.taxIdCountry,
      createdAt: now,
      updatedAt: now,
    };
    const stored = taxIdRow(taxId, caller, { type: "customer", id: row.id });
    const w = writerOf(c);

    // The unique index decides: concurrent creates with one prefix give one 201 and 409s.
    for (let attempt = 1; ; attempt++) {
      if (body.invoice_prefix === undefined) row.invoicePrefix = generateInvoicePrefix();
      const customer = serializeCustomer(row);
      try {
        await writeWithEvents(
          w,
          { insert: db.insert(customers).values(row), taxId: insertTaxId(db, stored) },
          { type: "customer.created", object: customer },
        );
        queueAfterWrite(w, [stored]);
        return c.json(customer, 201);
      } catch (err) {
        if (!isUniqueViolation(err, "invoice_prefix")) throw err;
        if (body.invoice_prefix !== undefined) throw prefixTaken(row.invoicePrefix);
        if (attempt === GENERATED_PREFIX_ATTEMPTS) {
          throw new ApiError("api_error", "Could not generate a unique invoice_prefix; retry the request.");
        }
      }
    }
  },
});
