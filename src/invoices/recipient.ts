import type { InvoiceType } from "../constants";
import type { CustomerRow } from "../db/schema";
import { ApiError } from "../http/errors";
import type { LineInput } from "./compute";

/**
 * IVA rules whose invoice must name its recipient by a Tax ID (RD 1619/2012 art. 6.1.d):
 * an intra-Community supply of goods (art. 25 Ley 37/1992) and services to a business in
 * another member state (art. 69.Uno.1º) need the recipient's VAT number of that state; a
 * domestic reverse charge (art. 84.Uno.2º) makes the Spanish business recipient the taxpayer,
 * named by its NIF.
 */
const NEEDS: Record<string, "eu" | "es"> = {
  exempt_art_25: "eu",
  reverse_charge_eu: "eu",
  reverse_charge: "es",
};

const TAX_ID: Record<"eu" | "es", string> = {
  eu: "an eu_vat Tax ID of another member state",
  es: "a Spanish NIF (es_nif, or an ES eu_vat)",
};

/**
 * The recipient rules of a Spanish invoice's lines, in line order; throws the first one broken.
 * An intra-Community supply cannot go on a simplified invoice (RD 1619/2012 art. 4.3).
 *
 * @example
 * checkRecipient("simplified", null, [{ …, taxes: [{ tax: "iva", rule: "reverse_charge" }] }]);
 * // throws 400 parameter_missing, param "customer"
 */
export function checkRecipient(
  type: InvoiceType,
  customer: CustomerRow | null,
  lines: readonly LineInput[],
): void {
  lines.forEach((line, i) => {
    line.taxes.forEach((tax, j) => {
      if (!("rule" in tax) || tax.tax !== "iva") return;
      const needs = NEEDS[tax.rule];
      if (!needs) return;
      const what = `lines.${i}.taxes.${j}.rule ${tax.rule}`;
      if (type === "simplified" && tax.rule === "exempt_art_25") {
        throw new ApiError(
          "parameter_invalid",
          `An intra-Community supply (${what}) needs an ordinary invoice (RD 1619/2012 art. 4.3).`,
          { param: "type" },
        );
      }
      if (!customer) {
        throw new ApiError("parameter_missing", `${what} needs a customer with ${TAX_ID[needs]}.`, {
          param: "customer",
        });
      }
      const spanish =
        customer.taxIdType === "es_nif" ||
        (customer.taxIdType === "eu_vat" && customer.taxIdCountry === "ES");
      const otherEu = customer.taxIdType === "eu_vat" && customer.taxIdCountry !== "ES";
      if (needs === "eu" ? !otherEu : !spanish) {
        throw new ApiError(
          "parameter_invalid",
          `${what} needs a customer with ${TAX_ID[needs]}; ${customer.id} has a ${customer.taxIdType} Tax ID (${customer.taxIdCountry}).`,
          { param: "customer" },
        );
      }
    });
  });
}
