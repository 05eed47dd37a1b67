import type { Caller } from "../contracts/caller";
import type { RegistroAlta } from "../contracts/verifactu-record";
import type { Database } from "../db/client";
import { ApiError } from "../http/errors";
import { sealThrough } from "../verifactu/seal";
import { registrationXml } from "../verifactu/xml";
import { findInvoice } from "./find";

/** Invoice `id`'s VERI*FACTU record as the AEAT XML document it is sent in. */
export async function verifactuRecordXml(db: Database, caller: Caller, id: string): Promise<string> {
  let row = await findInvoice(db, caller, id, true);
  if (row.verifactuSeq === null) {
    throw new ApiError(
      "resource_missing",
      `Invoice '${id}' has no VERI*FACTU record: only invoices of es accounts are registered.`,
      { param: "id" },
    );
  }
  // Issued moments ago and not sealed yet: seal the chain up to it now (deterministic, so
  // the consumer computes the same record).
  if (row.verifactuHash === null) {
    await sealThrough(db, caller, row.verifactuSeq);
    row = await findInvoice(db, caller, id, true);
  }
  return registrationXml(row.verifactuRecord as RegistroAlta);
}
