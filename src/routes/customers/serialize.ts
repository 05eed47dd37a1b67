import type { CustomerRow } from "../../db/schema";
import type { Customer } from "./schemas";

/** The one place a customer row becomes the API object. */
export function serializeCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    object: "customer" as const,
    live: row.live,
    name: row.name,
    invoice_prefix: row.invoicePrefix,
    tax_id: {
      id: row.taxIdId,
      object: "tax_id" as const,
      live: row.live,
      country: row.taxIdCountry,
      type: row.taxIdType,
      value: row.taxIdValue,
      owner: { type: "customer" as const, id: row.id },
      verification:
        row.taxIdVerificationStatus === null
          ? null
          : {
              status: row.taxIdVerificationStatus,
              valid: row.taxIdVerificationValid,
              completed_at: row.taxIdVerificationCompletedAt,
            },
    },
    email: row.email,
    phone: row.phone,
    address: addressOf(row),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The address, or null when none is stored (an address is always complete). */
function addressOf(row: CustomerRow): Customer["address"] {
  const {
    addressLine1: line_1,
    addressCity: city,
    addressPostalCode: postal_code,
    addressCountry: country,
  } = row;
  if (line_1 === null || city === null || postal_code === null || country === null) return null;
  return { line_1, line_2: row.addressLine2, city, postal_code, state: row.addressState, country };
}
