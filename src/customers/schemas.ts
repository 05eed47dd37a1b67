import * as z from "zod";
import { listParams } from "../http/pagination";
import { timestamp } from "../http/schemas";
import { text, upperCaseCode } from "../lib/fields";
import { addressInput, addressObject, addressPatchInput, countryCode } from "../party/address";
import { customerEinvoicingInput, customerEinvoicingObject } from "../party/einvoicing";
import { taxIdInput } from "../tax-ids/columns";
import { taxIdObject } from "../tax-ids/schemas";

const email = text(254).regex(/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/, "must be a valid email address");
const phone = text(32);

/** 3–12 of A–Z0–9, uppercased: the hyphen is the invoice-series joiner, so it is excluded. */
const invoicePrefix = upperCaseCode(
  (s) => /^[A-Z0-9]{3,12}$/.test(s),
  "must be 3 to 12 characters A-Z and 0-9",
).meta(
  globalThis.OMIT_API_DOCS
    ? {}
    : {
        description:
          "3 to 12 characters A–Z and 0–9, uppercased on input; unique per account and environment.",
        pattern: "^[A-Za-z0-9]{3,12}$",
      },
);

export const createCustomerBody = /* @__PURE__ */ z
  .object({
    name: text(256),
    invoice_prefix: invoicePrefix.optional(),
    tax_id: taxIdInput,
    email: email.nullable().optional(),
    phone: phone.nullable().optional(),
    address: addressInput.nullable().optional(),
    einvoicing: customerEinvoicingInput,
  })
  .strict();

/** Omitted fields stay unchanged; `null` clears where the seed allows it, else a type error. */
export const updateCustomerBody = /* @__PURE__ */ z
  .object({
    name: text(256).optional(),
    invoice_prefix: invoicePrefix.optional(),
    tax_id: taxIdInput.optional(),
    email: email.nullable().optional(),
    phone: phone.nullable().optional(),
    address: addressPatchInput.nullable().optional(),
    einvoicing: customerEinvoicingInput,
  })
  .strict();

export const listCustomersQuery = listParams
  .extend({
    q: z
      .string()
      .max(200, "must be at most 200 characters")
      .refine(
        (s) => s.isWellFormed() && !/[\u0000-\u001f\u007f-\u009f]/.test(s),
        "must not contain control characters",
      )
      .meta(
        globalThis.OMIT_API_DOCS
          ? {}
          : {
              description:
                "Case-insensitive substring of the id, name, Tax ID value or email; `%` and `_` match literally.",
            },
      )
      .optional(),
    country: countryCode.optional(),
  })
  .strict();

export type CreateCustomerBody = z.output<typeof createCustomerBody>;
export type UpdateCustomerBody = z.output<typeof updateCustomerBody>;

export const customerObject = /* @__PURE__ */ z
  .object({
    id: z.string(),
    object: z.literal("customer"),
    live: z.boolean(),
    name: z.string(),
    invoice_prefix: z.string(),
    tax_id: taxIdObject,
    email: z.string().nullable(),
    phone: z.string().nullable(),
    address: addressObject.nullable(),
    einvoicing: customerEinvoicingObject,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .strict();

export type Customer = z.output<typeof customerObject>;
