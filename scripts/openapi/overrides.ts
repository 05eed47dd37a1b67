/**
 * What JSON Schema cannot read from a zod refinement or transform. A request field checked by
 * code (a decimal string, a country code that is uppercased on input) converts to a bare
 * `{type: "string"}`; these add the rule it enforces, in words and, where one exists, as a
 * pattern that accepts every value the code accepts. Keyed by the schema objects themselves,
 * reached through the schemas that hold them, so a renamed field fails the build here.
 */
import * as z from "zod";
import { EVENT_TYPES } from "../../src/constants";
import { customRate, MAX_NUMBER_CHARS, quantity, unitPrice } from "../../src/lib/money";
import { listParams } from "../../src/http/pagination";
import { countryCode } from "../../src/party/address";
import { createCustomerBody, listCustomersQuery } from "../../src/customers/schemas";
import { createDestinationBody } from "../../src/event-destinations/schemas";
import { catalogTax, createInvoiceBody, customTax, seriesName } from "../../src/invoices/schemas";
import {
  createPaymentInstructionBody,
  updatePaymentInstructionBody,
} from "../../src/payment-instructions/schemas";
import type { JsonSchema } from "./schemas";

/** Given the generated schema and the converter (for schemas inside), the keywords to merge in. */
type Override = (generated: JsonSchema, convert: (schema: z.ZodType) => JsonSchema) => JsonSchema;

/** The schema inside `.optional()`/`.nullable()` wrappers. */
function inner(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
  return s;
}

/** A field of a strict object schema, unwrapped; throws when the field is gone. */
function field(object: z.ZodObject, name: string): z.ZodType {
  const schema = object.shape[name];
  if (!schema) throw new Error(`openapi overrides: no field ${name}`);
  return inner(schema as z.ZodType);
}

const invoice = createInvoiceBody;
const line = (field(invoice, "lines") as unknown as z.ZodArray<z.ZodObject>).element;
const lineTax = (field(line, "taxes") as unknown as z.ZodArray<z.ZodType>).element;
const bankTransfer = field(createPaymentInstructionBody, "bank_transfer") as z.ZodObject;
const enabledEvents = field(createDestinationBody, "enabled_events") as unknown as z.ZodPipe<
  z.ZodArray<z.ZodType>
>;

const decimal =
  (description: string, examples: string[]): Override =>
  () => ({
    description,
    pattern: "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$",
    maxLength: MAX_NUMBER_CHARS,
    examples,
  });

const described =
  (description: string, extra: JsonSchema = {}): Override =>
  () => ({ description, ...extra });

/** The additions, by schema; `lineTax` (one of two shapes, picked by its keys) gets both shapes. */
export const inputOverrides = new Map<z.ZodType, Override>([
  [
    countryCode,
    described("ISO 3166-1 alpha-2 country code, in any case (`es` is read as `ES`).", {
      pattern: "^[A-Za-z]{2}$",
    }),
  ],
  [quantity, decimal("A decimal string greater than 0, at most 6 decimals and 1,000,000,000.", ["2.5", "1"])],
  [
    unitPrice,
    decimal("A decimal string, negative allowed, at most 6 decimals, |x| ≤ 10^12, in the invoice currency.", [
      "100.00",
      "33.333",
    ]),
  ],
  [
    customRate,
    described('A percentage string from "0%" to "100%", at most 4 decimals.', {
      pattern: "^(0|[1-9][0-9]*)(\\.[0-9]+)?%$",
      maxLength: MAX_NUMBER_CHARS,
      examples: ["7.5%", "10%"],
    }),
  ],
  [
    seriesName,
    described("1 to 20 characters A–Z and 0–9, uppercased on input.", { pattern: "^[A-Za-z0-9]{1,20}$" }),
  ],
  [
    field(createCustomerBody, "invoice_prefix"),
    described("3 to 12 characters A–Z and 0–9, uppercased on input; unique per account and environment.", {
      pattern: "^[A-Za-z0-9]{3,12}$",
    }),
  ],
  [
    field(invoice, "currency"),
    described('ISO 4217 code, uppercased on input; default "EUR".', { pattern: "^[A-Za-z]{3}$" }),
  ],
  [field(invoice, "issue_date"), described("A calendar date, YYYY-MM-DD.", { format: "date" })],
  [field(invoice, "operation_date"), described("A calendar date, YYYY-MM-DD.", { format: "date" })],
  [
    lineTax,
    (_, convert) => ({
      description:
        'A catalog tax `{tax, rule}` (accounts of tax regime `es`, see GET /v1/tax-regimes/es) or a custom tax `{name, rate, effect}` (`global` accounts). The shape is chosen by its keys: an object with "tax" or "rule" is a catalog tax.',
      anyOf: [convert(catalogTax), convert(customTax)],
    }),
  ],
  [
    field(bankTransfer, "iban"),
    described("IBAN; spaces allowed, case-insensitive, registry length and check digits verified."),
  ],
  [
    field(bankTransfer, "bic"),
    described("BIC (ISO 9362), 8 or 11 characters; spaces allowed, case-insensitive."),
  ],
  [
    field(updatePaymentInstructionBody, "type"),
    described("Cannot be changed after creation: any value is rejected.", { not: {} }),
  ],
  [enabledEvents.in.element, () => ({ enum: ["*", ...EVENT_TYPES] })],
  [
    field(listParams, "limit"),
    described("How many objects a page holds: an integer from 1 to 100 (default 25)."),
  ],
  [
    field(listParams, "starting_after"),
    described("An id from the list: the page of objects after it (older). Pass the last id of `data`."),
  ],
  [
    field(listParams, "ending_before"),
    described(
      "An id from the list: the page of objects before it (newer), still newest first. Pass the first id of `data`.",
    ),
  ],
  [
    field(listCustomersQuery, "q"),
    described(
      "Case-insensitive substring of the id, name, Tax ID value or email; `%` and `_` match literally.",
    ),
  ],
]);
