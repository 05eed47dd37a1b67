import * as z from "zod";
import {
  CORRECTION_REASONS,
  INVOICE_NUMBERINGS,
  INVOICE_STATUSES,
  INVOICE_TYPES,
  PAYMENT_STATUSES,
  TAX_EFFECTS,
  TAX_TREATMENTS,
  VERIFACTU_RECORD_KINDS,
  VERIFACTU_STATUSES,
} from "../constants";
import { listParams } from "../http/pagination";
import { timestamp } from "../http/schemas";
import { isIsoDate } from "../lib/dates";
import { multilineText, objectId, text, upperCaseCode } from "../lib/fields";
import { customRate, quantity, unitPrice } from "../lib/money";
import { addressObject } from "../party/address";
import { customerEinvoicingObject, issuerEinvoicingObject } from "../party/einvoicing";

export const MAX_LINES = 200;
export const MAX_PAYMENT_OPTIONS = 10;

export const isoDate = /* @__PURE__ */ z
  .string()
  .refine(isIsoDate, "must be a calendar date written YYYY-MM-DD")
  .meta(globalThis.OMIT_API_DOCS ? {} : { description: "A calendar date, YYYY-MM-DD.", format: "date" });

/** 1–20 of A–Z0–9, uppercased (ASCII only, so "ſ" cannot become "S"). */
export const seriesName = upperCaseCode(
  (s) => /^[A-Z0-9]{1,20}$/.test(s),
  "must be 1 to 20 characters A-Z and 0-9",
).meta(
  globalThis.OMIT_API_DOCS
    ? {}
    : {
        description: "1 to 20 characters A–Z and 0–9, uppercased on input.",
        pattern: "^[A-Za-z0-9]{1,20}$",
      },
);

const currency = upperCaseCode((s) => /^[A-Z]{3}$/.test(s), "must be an ISO 4217 currency code").meta(
  globalThis.OMIT_API_DOCS
    ? {}
    : {
        description: 'ISO 4217 code, uppercased on input; default "EUR".',
        pattern: "^[A-Za-z]{3}$",
      },
);

/** Exported for the OpenAPI generator, which describes `lineTax` as either shape. */
export const catalogTax = /* @__PURE__ */ z.object({ tax: text(64), rule: text(64) }).strict();
export const customTax = /* @__PURE__ */ z
  .object({ name: text(64), rate: customRate, effect: z.enum(TAX_EFFECTS) })
  .strict();

/**
 * `{tax, rule}` from the catalog (`es`), or a custom tax (`global`); the regime decides which
 * is valid. The shape is chosen by its keys, not tried in turn as a union would, so an error
 * names the field inside the entry (`lines.0.taxes.0.rule`) instead of the whole entry.
 * Exported for the OpenAPI generator, which gives it the two shapes' JSON Schema.
 */
export const lineTax = /* @__PURE__ */ z
  .unknown()
  .transform((value, ctx) => {
    const isCatalog = typeof value === "object" && value !== null && ("tax" in value || "rule" in value);
    const result = (isCatalog ? catalogTax : customTax).safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue({ ...issue } as z.core.$ZodRawIssue);
    return z.NEVER;
  })
  .meta(
    globalThis.OMIT_API_DOCS
      ? {}
      : {
          description:
            'A catalog tax `{tax, rule}` (accounts of tax regime `es`, see GET /v1/tax-regimes/es) or a custom tax `{name, rate, effect}` (`global` accounts). The shape is chosen by its keys: an object with "tax" or "rule" is a catalog tax.',
        },
  );

/** UN/ECE Recommendation 20 (with Rec 21): the shape only, the list is not checked (docs/invoices.md). */
const unitCode = /* @__PURE__ */ z
  .string()
  .regex(/^[A-Z0-9]{2,3}$/, "must be a UN/ECE Recommendation 20 unit code: 2 or 3 characters A-Z and 0-9")
  .meta(
    globalThis.OMIT_API_DOCS
      ? {}
      : {
          description:
            'The unit of `quantity`, a UN/ECE Recommendation 20 code (`HUR` hour, `DAY`, `KGM` kilogram…); default "C62" (one).',
          examples: ["HUR"],
        },
  );

const line = /* @__PURE__ */ z
  .object({
    description: text(1000),
    quantity,
    unit_code: unitCode.optional(),
    unit_price: unitPrice,
    taxes: z.array(lineTax).max(10, "must have at most 10 entries"),
  })
  .strict();

export const createInvoiceBody = /* @__PURE__ */ z
  .object({
    draft: z
      .boolean()
      .optional()
      .describe(
        globalThis.OMIT_API_DOCS
          ? ""
          : "`true`: a draft (a preview) that consumes no number; finalize it to issue.",
      ),
    type: z.enum(INVOICE_TYPES).optional(),
    customer: objectId.nullable().optional(),
    series: seriesName.optional(),
    numbering: z.enum(INVOICE_NUMBERINGS).optional(),
    issue_date: isoDate.optional(),
    operation_date: isoDate.nullable().optional(),
    currency: currency.optional(),
    lines: z
      .array(line)
      .min(1, "must have at least 1 line")
      .max(MAX_LINES, `must have at most ${MAX_LINES} lines`),
    payment_terms: z
      .object({
        due_date: isoDate.nullable().optional(),
        options: z.array(objectId).min(1, "must have at least 1 entry").max(MAX_PAYMENT_OPTIONS).optional(),
      })
      .strict()
      .optional(),
    corrects: z
      .object({ invoice: objectId, reason: z.enum(CORRECTION_REASONS) })
      .strict()
      .optional(),
    notes: multilineText(2000).nullable().optional(),
  })
  .strict();

export type CreateInvoiceBody = z.output<typeof createInvoiceBody>;

const creation = createInvoiceBody.shape;

/**
 * A draft's edit: any creation field but `draft`; omitted fields stay, `lines` replaces the
 * whole list, and `null` clears an optional field (it takes its default again).
 */
export const updateInvoiceBody = /* @__PURE__ */ z
  .object({
    type: creation.type.unwrap().nullable().optional(),
    customer: creation.customer,
    series: seriesName.nullable().optional(),
    numbering: creation.numbering.unwrap().nullable().optional(),
    issue_date: isoDate.nullable().optional(),
    operation_date: creation.operation_date,
    currency: currency.nullable().optional(),
    lines: creation.lines.optional(),
    payment_terms: creation.payment_terms.unwrap().nullable().optional(),
    corrects: creation.corrects.unwrap().nullable().optional(),
    notes: creation.notes,
  })
  .strict();

export type UpdateInvoiceBody = z.output<typeof updateInvoiceBody>;

export const listInvoicesQuery = listParams
  .extend({
    customer: objectId.optional(),
    type: z.enum(INVOICE_TYPES).optional(),
    series: seriesName.optional(),
    status: z.enum(INVOICE_STATUSES).optional(),
    payment_status: z.enum(PAYMENT_STATUSES).optional(),
    overdue: z
      .enum(["true", "false"])
      .transform((v) => v === "true")
      .meta(
        globalThis.OMIT_API_DOCS
          ? {}
          : {
              description:
                "`true`: only overdue invoices (the object's `overdue`); `false`: only the others.",
            },
      )
      .optional(),
    // Bracketed keys, as Stripe writes ranges: the query string's key is literally `issue_date[gte]`.
    "issue_date[gte]": isoDate
      .meta(
        globalThis.OMIT_API_DOCS
          ? {}
          : {
              description:
                "Issued on or after this date (YYYY-MM-DD). A draft without an issue date never matches.",
            },
      )
      .optional(),
    "issue_date[lte]": isoDate
      .meta(
        globalThis.OMIT_API_DOCS
          ? {}
          : {
              description:
                "Issued on or before this date (YYYY-MM-DD). A draft without an issue date never matches.",
            },
      )
      .optional(),
  })
  .strict();

/** `POST /v1/invoices/{id}/void`. */
export const voidInvoiceBody = /* @__PURE__ */ z
  .object({
    reason: text(500).meta(
      globalThis.OMIT_API_DOCS
        ? {}
        : {
            description: "Why the invoice is void (1–500 characters): shown on the invoice as `void_reason`.",
          },
    ),
  })
  .strict();

const money = /* @__PURE__ */ z
  .string()
  .describe(
    globalThis.OMIT_API_DOCS ? "" : "A decimal string with exactly the currency's minor-unit decimals.",
  );

const snapshotTaxId = /* @__PURE__ */ z
  .object({ country: z.string(), type: z.string(), value: z.string() })
  .strict();

const appliedTax = /* @__PURE__ */ z
  .object({
    tax: z.string().nullable(),
    rule: z.string().nullable(),
    name: z.string(),
    treatment: z.enum(TAX_TREATMENTS),
    effect: z.enum(TAX_EFFECTS),
    rate: z.string().nullable(),
    authority_code: z.string().nullable(),
  })
  .strict();

const registrationErrors = /* @__PURE__ */ z.array(
  z.object({ code: z.string(), message: z.string() }).strict(),
);

const OLD_SNAPSHOT = "As at issuance; null on invoices issued before e-invoicing addresses were snapshotted.";

export const invoiceObject = /* @__PURE__ */ z
  .object({
    id: z.string(),
    object: z.literal("invoice"),
    live: z.boolean(),
    type: z.enum(INVOICE_TYPES),
    status: z.enum(INVOICE_STATUSES).describe("`draft` (a preview), `issued`, or `void`."),
    number: z.string().nullable().describe("null on drafts."),
    series: z.string(),
    numbering: z.enum(INVOICE_NUMBERINGS),
    issue_date: z.string().nullable().describe("null on a draft that has none (finalizing takes today)."),
    operation_date: z.string().nullable(),
    currency: z.string(),
    issuer: z
      .object({
        name: z.string(),
        tax_id: snapshotTaxId.nullable(),
        address: addressObject.nullable(),
        einvoicing: issuerEinvoicingObject.nullable().describe(OLD_SNAPSHOT),
      })
      .strict(),
    customer: z
      .object({
        id: z.string(),
        name: z.string(),
        tax_id: snapshotTaxId.extend({ id: z.string() }).strict(),
        email: z.string().nullable(),
        phone: z.string().nullable(),
        address: addressObject.nullable(),
        einvoicing: customerEinvoicingObject.nullable().describe(OLD_SNAPSHOT),
      })
      .strict()
      .nullable(),
    lines: z.array(
      z
        .object({
          description: z.string(),
          quantity: z.string(),
          unit_code: z.string().describe('UN/ECE Recommendation 20; "C62" (one) unless the line named one.'),
          unit_price: z.string(),
          amount: money,
          taxes: z.array(appliedTax),
        })
        .strict(),
    ),
    tax_breakdown: z.array(
      appliedTax
        .extend({
          description: z.string(),
          legal_reference: z.string().nullable(),
          base: money,
          amount: money.nullable(),
        })
        .strict(),
    ),
    subtotal: money,
    total_tax_added: money,
    total_tax_withheld: money,
    total: money,
    amount_payable: money,
    payment_status: z
      .enum(PAYMENT_STATUSES)
      .nullable()
      .describe("Its payments against `amount_payable`; `not_applicable` when that is ≤ 0; null on drafts."),
    amount_paid: money.nullable().describe("The sum of its payments; null on drafts."),
    amount_remaining: money
      .nullable()
      .describe("`amount_payable` − `amount_paid`, never below zero; null on drafts."),
    paid_on: z.string().nullable().describe("The `paid_on` of the payment that made it `paid`."),
    overdue: z
      .boolean()
      .describe(
        "Issued, still owed, and `payment_terms.due_date` is before today (Europe/Madrid for `es` accounts, UTC otherwise).",
      ),
    payment_terms: z
      .object({
        due_date: z.string().nullable(),
        options: z.array(
          z
            .object({
              payment_instruction: z.string(),
              type: z.literal("bank_transfer"),
              bank_transfer: z
                .object({ beneficiary: z.string(), iban: z.string(), bic: z.string().nullable() })
                .strict(),
              reference: z
                .string()
                .nullable()
                .describe(
                  globalThis.OMIT_API_DOCS
                    ? ""
                    : "The invoice number: the transfer reference the payer quotes (null on drafts).",
                ),
            })
            .strict(),
        ),
      })
      .strict(),
    corrects: z
      .object({ invoice: z.string(), reason: z.enum(CORRECTION_REASONS) })
      .strict()
      .nullable(),
    corrected_by: z.array(z.string()),
    notes: z.string().nullable(),
    voided_at: timestamp.nullable(),
    void_reason: z.string().nullable(),
    verifactu: z
      .object({
        status: z.enum(VERIFACTU_STATUSES),
        hash: z
          .string()
          .nullable()
          .describe(
            "The record's Huella (SHA-256, uppercase hex); null until it is sealed into its chain, moments after issuance.",
          ),
        previous_hash: z
          .string()
          .nullable()
          .describe("The previous record's Huella; null for the chain's first record."),
        generated_at: timestamp,
        qr_url: z.string().describe("AEAT's verification URL the invoice's QR code encodes."),
        errors: registrationErrors,
        records: z
          .array(
            z
              .object({
                id: z.string(),
                kind: z.enum(VERIFACTU_RECORD_KINDS),
                status: z.enum(VERIFACTU_STATUSES),
                hash: z.string().nullable(),
                previous_hash: z.string().nullable(),
                generated_at: timestamp,
                submitted_at: timestamp
                  .nullable()
                  .describe("When the request that got the record's verdict was sent."),
                csv: z
                  .string()
                  .nullable()
                  .describe(
                    "AEAT's receipt (Código Seguro de Verificación) of the request that registered it.",
                  ),
                registered_at: z
                  .string()
                  .nullable()
                  .describe("AEAT's presentation time (TimestampPresentacion), as AEAT gave it."),
                errors: registrationErrors,
                url: z.string().describe("Where this record's XML is served."),
              })
              .strict(),
          )
          .describe(
            "Every record of the invoice, oldest first: its registration, subsanaciones and cancellation.",
          ),
        cancellation: z
          .object({
            status: z.enum(["pending", "accepted", "rejected"]),
            hash: z.string().nullable(),
            previous_hash: z.string().nullable(),
            generated_at: timestamp,
            csv: z.string().nullable(),
            errors: registrationErrors,
          })
          .strict()
          .nullable()
          .describe(
            "The cancellation record (RegistroAnulacion) the void of the invoice wrote; null when not voided.",
          ),
      })
      .strict()
      .nullable()
      .describe(
        "The VERI*FACTU records (es accounts): the top level is the latest registration or subsanación; null on global accounts and drafts.",
      ),
    created_at: timestamp,
  })
  .strict();

export type Invoice = z.output<typeof invoiceObject>;
