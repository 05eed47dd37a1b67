/**
 * The reference's prose and request examples. They live here, at build time, so that none of
 * it costs the API Worker's bundle; the tests parse every example with its route's own schema.
 */

export const TITLE = "Invoicing API";

export const DESCRIPTION = `Invoices with tax compliance for businesses that invoice in Spain and worldwide, following
Stripe's conventions.

**Authentication.** Send \`Authorization: Bearer <key>\`. The key's prefix selects the
environment: \`sk_test_…\` sees only test data, \`sk_live_…\` only live data, and every object
carries \`live\`. Data of another account, or of the other environment, does not exist for the
caller (404). \`GET /health\` and the tax-regime catalog need no key.

**Errors.** Every error is JSON in one envelope, \`{"error": {type, code, message, param?,
request_id}}\`; each operation lists the codes it can answer per status. \`param\` is the dotted
path of the offending field (\`address.city\`). Every response carries \`Request-Id\`.

**Lists** are \`{"object": "list", url, has_more, data}\`, newest first, paged with \`limit\`
(1–100, default 25) and one of the cursors \`starting_after\` or \`ending_before\`.

**Retries.** Every authenticated \`POST\` accepts \`Idempotency-Key\`: a retry with the same key
gets the first response back byte for byte (\`Idempotent-Replayed: true\`) for 24 hours.

**Rate limits.** Over a limit the answer is \`429 rate_limited\` with \`Retry-After\` (seconds). Each account
environment may also write a number of bytes a UTC day (rows, events, stored responses; Test
less than Live): past it, writes are \`429 storage_budget_exhausted\` with \`Retry-After\` (until
midnight UTC), and reads go on.

**Webhooks.** Event destinations receive a thin event (no \`data\`) signed with
\`Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\`, keyed with the
destination's whole \`whsec_…\` secret; see the Webhooks section.

This document is generated from the zod schemas that validate the requests and shape the
responses; the reference page is served at \`/docs\`.`;

/** Tag descriptions, by the tag the routes name; a tag without one is shown without. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Health: "A static route without bindings: the floor benchmarks compare every endpoint to.",
  "Tax regimes":
    "The public, effective-dated tax catalog (no key; readable from any origin, with ETag revalidation).",
  Customers: "Customers with a validated Tax ID and an optional billing address.",
  "Payment instructions": "Reusable bank-transfer details that invoices snapshot.",
  Account: "The key's account as seen from its environment: issuer profile and default payment instructions.",
  Events: "Every change recorded with a snapshot of the object, kept per environment.",
  "Event destinations": "Webhook endpoints: which events they receive, their status and signing secret.",
  Invoices: "Issued invoices: numbering, arithmetic, corrections, VERI*FACTU registration and the PDF.",
  "Tax IDs":
    "Every Tax ID of the account's customers and profile, current or replaced, with its verification.",
  Balance: "The usage balance and its ledger.",
};

export const IDEMPOTENCY_DESCRIPTION =
  "1 to 255 printable ASCII characters. The first response to a request with this key (a 2xx, or a 4xx from a business rule) is stored for 24 hours per account and environment, and a retry gets it back byte for byte with `Idempotent-Replayed: true`. The same key with another path or body is 400 `idempotency_key_reused`; a retry while the first request runs is 409 `idempotency_key_in_use`.";

export const WEBHOOK_DESCRIPTION =
  "Delivered to every enabled event destination of the event's account and environment that subscribes to its type: a `POST` with the thin event as JSON. Verify `Service-Signature` before trusting the body, dedupe by event `id` (delivery is at least once and unordered), and retrieve the event (`GET /v1/events/{id}`) for its `data` snapshot or the related object for its current state. Any 2xx within 10 seconds acknowledges; anything else is retried, at most 5 attempts.";

export const SIGNATURE_DESCRIPTION =
  "`t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, t + \".\" + raw body)>`, keyed with the UTF-8 bytes of the destination's whole secret (`whsec_…`, prefix included). Reject a `t` more than 5 minutes from now. While a secret is being rotated, a second `v1` (the previous secret's) follows: accept the request if any `v1` matches.";

/** Request body examples, by `METHOD /path` (Hono syntax, as the routes declare it). */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  "POST /v1/customers": {
    name: "Acme Servicios SL",
    tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
    email: "billing@acme.example",
    address: { line_1: "Calle Mayor 1", city: "Madrid", postal_code: "28013", country: "ES" },
  },
  "PATCH /v1/customers/:id": { email: null, address: { city: "Barcelona", postal_code: "08001" } },
  "POST /v1/payment-instructions": {
    label: "Main account",
    type: "bank_transfer",
    bank_transfer: {
      beneficiary: "Acme Servicios SL",
      iban: "ES91 2100 0418 4502 0005 1332",
      bic: "CAIXESBBXXX",
    },
  },
  "PATCH /v1/account": {
    legal_name: "Acme Servicios SL",
    tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
    address: { line_1: "Calle Mayor 1", city: "Madrid", postal_code: "28013", country: "ES" },
  },
  "POST /v1/event-destinations": {
    name: "Billing webhooks",
    url: "https://hooks.example.com/invoicing",
    enabled_events: ["invoice.issued", "customer.updated"],
  },
  "POST /v1/invoices": {
    customer: "cus_01M80J0F2Z9SE2W3JW8PC9WTFE",
    lines: [
      {
        description: "Consulting, November",
        quantity: "10",
        unit_price: "85.00",
        taxes: [
          { tax: "iva", rule: "general" },
          { tax: "irpf", rule: "professional" },
        ],
      },
    ],
    payment_terms: { due_date: "2026-12-31", options: ["pmi_01M80J0F2Z9SE2W3JW8PC9WTFE"] },
  },
};
