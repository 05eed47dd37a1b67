import type { CustomerRow } from "../db/schema";
import { addressOf } from "../party/address";
import { customerEinvoicingOf } from "../party/einvoicing";
import { taxIdOf } from "../tax-ids/columns";
import type { Customer } from "./schemas";

/** The one place a customer row becomes the API object. */
export function serializeCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    object: "customer" as const,
    live: row.live,
    name: row.name,
    invoice_prefix: row.invoicePrefix,
    tax_id: taxIdOf(row, { type: "customer", id: row.id }, row.live) as Customer["tax_id"],
    email: row.email,
    phone: row.phone,
    address: addressOf(row),
    einvoicing: customerEinvoicingOf(row),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
