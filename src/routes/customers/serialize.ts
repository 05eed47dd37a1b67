import type { CustomerRow } from "../../db/schema";

/** The one place a customer row becomes the API object. */
export function serializeCustomer(row: CustomerRow) {
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
    address:
      row.addressLine1 === null
        ? null
        : {
            line_1: row.addressLine1,
            line_2: row.addressLine2,
            city: row.addressCity,
            postal_code: row.addressPostalCode,
            state: row.addressState,
            country: row.addressCountry,
          },
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export type Customer = ReturnType<typeof serializeCustomer>;
