import { ApiError } from "../http/errors";

// Six letters A–Z without I and O: unambiguous when read aloud or printed.
const PREFIX_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ";

/** A random six-letter invoice prefix (rejection sampling, so every letter is equally likely). */
export function generateInvoicePrefix(): string {
  let out = "";
  while (out.length < 6) {
    for (const b of crypto.getRandomValues(new Uint8Array(8))) {
      if (b < 240 && out.length < 6) out += PREFIX_LETTERS[b % 24];
    }
  }
  return out;
}

export function prefixTaken(prefix: string): ApiError {
  return new ApiError(
    "invoice_prefix_taken",
    `invoice_prefix '${prefix}' is already used by another customer.`,
    { param: "invoice_prefix" },
  );
}

export function prefixLocked(prefix: string): ApiError {
  return new ApiError(
    "invoice_prefix_locked",
    `invoice_prefix '${prefix}' is locked: invoices have been issued to this customer.`,
    { param: "invoice_prefix" },
  );
}
