/**
 * Every event type a destination may subscribe to. The customer and payment-instruction
 * types are emitted today; the others are reserved for the features that emit them
 * (Tax ID verification, invoices) so destinations can subscribe ahead of time.
 */
export const EVENT_TYPES = [
  "customer.created",
  "customer.updated",
  "customer.deleted",
  "payment_instruction.created",
  "payment_instruction.updated",
  "payment_instruction.deleted",
  "tax_id.verification.completed",
  "tax_id.verification.failed",
  "invoice.issued",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** The objects events are about, with the path they are retrieved from. */
export const RELATED_OBJECT_PATHS = {
  customer: "/v1/customers",
  payment_instruction: "/v1/payment-instructions",
  tax_id: "/v1/customers",
  invoice: "/v1/invoices",
} as const;

export type RelatedObjectType = keyof typeof RELATED_OBJECT_PATHS;
