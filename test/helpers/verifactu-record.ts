import type { RegistroAlta } from "../../src/contracts/verifactu-record";
import type { Invoice } from "../../src/invoices/schemas";
import { type BodyOptions, type ChainOptions, recordBody, sealRecord } from "../../src/verifactu/record";

/** An invoice's record sealed into a chain in one step (issuance and the sealer do it in two). */
export async function registrationRecord(
  invoice: Invoice,
  options: BodyOptions & ChainOptions,
): Promise<RegistroAlta> {
  return sealRecord(recordBody(invoice, options), options);
}
