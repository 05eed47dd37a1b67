export type InvoiceKind = "ordinary" | "credit_note";

/**
 * Returns the ordered instruction ids an invoice gets as payment terms.
 *
 * - Per-invoice `explicit` options, when given (any array, even empty), replace the account
 *   defaults; otherwise the account `defaults` apply. Order is kept: the first id is preferred.
 * - Credit notes and invoices whose payable amount is zero or negative get no payment terms,
 *   whether the options are explicit or default: the seed says such invoices have empty terms,
 *   and there is nothing for the customer to pay, so explicit options are dropped as well.
 * - Repeated ids are kept once, at their first position.
 *
 * @throws RangeError when `payableMinor` is not an integer (money is integer minor units).
 * @example
 * resolvePaymentInstructions({ kind: "ordinary", payableMinor: 12100, defaults: ["pmi_a", "pmi_b"] })
 * // ["pmi_a", "pmi_b"]
 * resolvePaymentInstructions({ kind: "ordinary", payableMinor: 12100, explicit: ["pmi_b"], defaults: ["pmi_a"] })
 * // ["pmi_b"]
 * resolvePaymentInstructions({ kind: "credit_note", payableMinor: 12100, defaults: ["pmi_a"] })
 * // []
 */
export function resolvePaymentInstructions(input: {
  kind: InvoiceKind;
  payableMinor: number;
  explicit?: readonly string[] | undefined;
  defaults: readonly string[];
}): string[] {
  if (!Number.isInteger(input.payableMinor)) {
    throw new RangeError(`payableMinor must be an integer number of minor units, got ${input.payableMinor}.`);
  }
  if (input.kind === "credit_note" || input.payableMinor <= 0) return [];
  return [...new Set(input.explicit ?? input.defaults)];
}
