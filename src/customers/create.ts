import type { Caller } from "../contracts/caller";
import { isUniqueViolation } from "../db/errors";
import { type CustomerRow, customers } from "../db/schema";
import type { Writer } from "../events/write";
import { writeWithEvents } from "../events/write";
import { ApiError } from "../http/errors";
import { nowIso } from "../lib/clock";
import { newId } from "../lib/ids";
import { addressColumns } from "../party/address";
import { einvoicingColumns } from "../party/einvoicing";
import { newTaxIdColumns } from "../tax-ids/columns";
import { insertTaxId, queueAfterWrite, taxIdRow, verifiesFor } from "../tax-ids/write";
import { generateInvoicePrefix, prefixTaken } from "./fields";
import type { CreateCustomerBody, Customer } from "./schemas";
import { serializeCustomer } from "./serialize";

const GENERATED_PREFIX_ATTEMPTS = 5;

export async function createCustomer(w: Writer, caller: Caller, body: CreateCustomerBody): Promise<Customer> {
  const { db } = w;
  const now = nowIso();
  const taxId = newTaxIdColumns(body.tax_id, verifiesFor(caller, w.env));
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
    einvoicingPeppolId: null,
    einvoicingDir3: null,
    ...einvoicingColumns(body.einvoicing),
    filterCountry: address.addressCountry ?? taxId.taxIdCountry,
    createdAt: now,
    updatedAt: now,
  };
  const stored = taxIdRow(taxId, caller, { type: "customer", id: row.id });

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
      return customer;
    } catch (err) {
      if (!isUniqueViolation(err, "invoice_prefix")) throw err;
      if (body.invoice_prefix !== undefined) throw prefixTaken(row.invoicePrefix);
      if (attempt === GENERATED_PREFIX_ATTEMPTS) {
        throw new ApiError("api_error", "Could not generate a unique invoice_prefix; retry the request.");
      }
    }
  }
}
