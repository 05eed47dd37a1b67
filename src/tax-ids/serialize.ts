import type { TaxIdRow } from "../db/schema";
import { taxIdOf } from "./columns";
import type { TaxId } from "./schemas";

/**
 * The one place a `tax_ids` row becomes the API object, through the serializer of its
 * owner's inline copy, so `GET /v1/tax-ids/{id}` and the customer's `tax_id` cannot differ.
 */
export function serializeTaxId(row: TaxIdRow): TaxId {
  const columns = {
    taxIdId: row.id,
    taxIdCountry: row.country,
    taxIdType: row.type,
    taxIdValue: row.value,
    taxIdVerificationStatus: row.verificationStatus,
    taxIdVerificationValid: row.verificationValid,
    taxIdVerificationCompletedAt: row.verificationCompletedAt,
    taxIdVerifiedName: row.verifiedName,
    taxIdVerifiedAddress: row.verifiedAddress,
    taxIdCreatedAt: row.createdAt,
  };
  return taxIdOf(columns, { type: row.ownerType, id: row.ownerId }, row.live) as TaxId;
}
