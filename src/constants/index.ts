/**
 * Value lists shared by the database columns and the API schemas. They live here, below
 * both, so that `db/schema` never imports a feature module and features import the schema
 * without a cycle.
 */

export const TAX_REGIME_IDS = ["global", "es"] as const;
export type TaxRegimeId = (typeof TAX_REGIME_IDS)[number];

/** `added`: added to the invoice total. `withheld`: withheld from the amount payable to the supplier. */
export const TAX_EFFECTS = ["added", "withheld"] as const;
export type TaxEffect = (typeof TAX_EFFECTS)[number];

/** Only `taxable` calculates a tax amount (at `rate`); the others have `rate: null`. */
export const TAX_TREATMENTS = ["taxable", "exempt", "reverse_charge", "not_subject"] as const;
export type TaxTreatment = (typeof TAX_TREATMENTS)[number];

export const TAX_ID_TYPES = ["es_nif", "eu_vat", "local"] as const;
export type TaxIdType = (typeof TAX_ID_TYPES)[number];

export const VERIFICATION_STATUSES = ["pending", "completed", "failed"] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** Who a Tax ID belongs to: a customer, or the account (its issuer profile, per environment). */
export const TAX_ID_OWNER_TYPES = ["account", "customer"] as const;
export type TaxIdOwnerType = (typeof TAX_ID_OWNER_TYPES)[number];

export const PAYMENT_INSTRUCTION_TYPES = ["bank_transfer"] as const;

/**
 * What lets an es account issue simplified invoices up to its limit (RD 1619/2012 art. 4):
 * 400 EUR by default (4.1); 3,000 EUR for the activities of 4.2 or with an AEAT authorisation.
 */
export const SIMPLIFIED_BASES = ["art_4_1", "art_4_2", "aeat_authorisation"] as const;
export type SimplifiedBasis = (typeof SIMPLIFIED_BASES)[number];
export const SIMPLIFIED_LIMITS = {
  art_4_1: "400.00",
  art_4_2: "3000.00",
  aeat_authorisation: "3000.00",
} as const;

export const INVOICE_TYPES = ["ordinary", "simplified", "corrective"] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
export const INVOICE_NUMBERINGS = ["series", "customer"] as const;
export type InvoiceNumbering = (typeof INVOICE_NUMBERINGS)[number];
/** Corrective reasons (RD 1619/2012 art. 15; VERI*FACTU TipoFactura R1–R5). R5 corrects a simplified invoice. */
/** A VERI*FACTU record's state at the registry: `pending` until its answer (compliance.md). */
export const VERIFACTU_STATUSES = ["pending", "accepted", "accepted_with_errors", "rejected"] as const;
export type VerifactuStatus = (typeof VERIFACTU_STATUSES)[number];
export const VERIFACTU_RECORD_KINDS = ["registration", "subsanacion", "cancellation"] as const;
export const REPRESENTATION_TYPES = ["own_certificate", "apoderamiento", "colaboracion_social"] as const;
export const CORRECTION_REASONS = ["R1", "R2", "R3", "R4", "R5"] as const;
export type CorrectionReason = (typeof CORRECTION_REASONS)[number];

/** lifecycle.md: a draft is a preview; an issued invoice can take payments or be voided. */
export const INVOICE_STATUSES = ["draft", "issued", "void"] as const;
/** An issued invoice's payments against its `amount_payable`; `not_applicable` when that is ≤ 0. */
export const PAYMENT_STATUSES = ["unpaid", "partially_paid", "paid", "not_applicable"] as const;
/** How a payment was received (the service records payments; it does not move money). */
export const PAYMENT_METHODS = ["bank_transfer", "card", "cash", "direct_debit", "cheque", "other"] as const;

/** `usage`: a debit for an issued invoice. `top_up`: a credit made by an operator. */
export const BALANCE_TRANSACTION_TYPES = ["usage", "top_up"] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

export const DESTINATION_STATUSES = ["enabled", "disabled"] as const;
export const DISABLED_REASONS = ["delivery_failures", "requested"] as const;

/** `succeeded`, `failed`, `exhausted` (dead-lettered after the last attempt) or `skipped`. */
export const DELIVERY_OUTCOMES = ["succeeded", "failed", "exhausted", "skipped"] as const;
/** The outcomes of a request actually sent: the rows the delivery log API lists. */
export const ATTEMPT_OUTCOMES = ["succeeded", "failed"] as const;

/** A test event sent to one destination by `POST /v1/event-destinations/{id}/ping`, never fanned out. */
export const PING_EVENT = "event_destination.ping";

/** Every event type a destination may subscribe to. */
export const EVENT_TYPES = [
  "customer.created",
  "customer.updated",
  "customer.deleted",
  "payment_instruction.created",
  "payment_instruction.updated",
  "payment_instruction.deleted",
  "tax_id.verification.completed",
  "tax_id.verification.failed",
  "invoice.created",
  "invoice.updated",
  "invoice.deleted",
  "invoice.issued",
  "invoice.amended",
  "invoice.paid",
  "invoice.voided",
  "invoice.overdue",
  "invoice.verifactu_registration.accepted",
  "invoice.verifactu_registration.accepted_with_errors",
  "invoice.verifactu_registration.rejected",
  "invoice.verifactu_cancellation.accepted",
  "invoice.verifactu_cancellation.rejected",
  "verifactu.incident.opened",
  "verifactu.incident.closed",
  "invoice.pdf.generated",
  "payment.created",
  "payment.deleted",
  "billing.balance_transaction.created",
  "event_destination.ping",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** The objects events are about, with the path they are retrieved from. */
export const RELATED_OBJECT_PATHS = {
  customer: "/v1/customers",
  payment_instruction: "/v1/payment-instructions",
  tax_id: "/v1/tax-ids",
  invoice: "/v1/invoices",
  payment: "/v1/payments",
  balance_transaction: "/v1/balance-transactions",
  event_destination: "/v1/event-destinations",
  account: "/v1/account",
} as const;
export type RelatedObjectType = keyof typeof RELATED_OBJECT_PATHS;
