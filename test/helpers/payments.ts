import { env } from "cloudflare:workers";
import type { Payment } from "../../src/payments/schemas";
import { type ApiClient, type ApiResponse, client, expectStatus } from "./api";
import { createAccount, createCustomer } from "./factories";
import { esIssuer, type Invoice, type IssuerSetup, issue, ivaLine } from "./invoices";
import type { Event, List } from "./types";

export type { Payment };

/** POST /v1/invoices/{id}/payments. */
export const pay = (api: ApiClient, invoice: string, body: Record<string, unknown>) =>
  api.post(`/v1/invoices/${invoice}/payments`, body) as Promise<ApiResponse<Payment>>;

/** Records a payment (201 or the test fails with the response). */
export async function paid(api: ApiClient, invoice: string, body: Record<string, unknown>): Promise<Payment> {
  const res = await pay(api, invoice, body);
  expectStatus(res, 201);
  return res.body;
}

/** An `es` issuer and one of its invoices: 100.00 + IVA 21 % = amount_payable "121.00". */
export async function esInvoice(): Promise<IssuerSetup & { invoice: Invoice }> {
  const setup = await esIssuer();
  const invoice = await issue(setup.api, { customer: setup.customer.id, lines: [ivaLine("100")] });
  return { ...setup, invoice };
}

/** A fresh `global` account (no issuer profile needed) and a customer. */
export async function globalIssuer(): Promise<IssuerSetup> {
  const account = await createAccount({ taxRegime: "global" });
  const api = client(account.testKey);
  const customer = await createCustomer(api, {
    name: "Initech Inc",
    tax_id: { country: "US", type: "local", value: "US123456" },
  });
  return { account, api, customer };
}

/** A `global` invoice of one untaxed line: amount_payable is `unitPrice` in `currency`. */
export async function globalInvoice(
  setup: IssuerSetup,
  unitPrice: string,
  currency = "EUR",
): Promise<Invoice> {
  return issue(setup.api, {
    customer: setup.customer.id,
    currency,
    lines: [{ description: "Item", quantity: "1", unit_price: unitPrice, taxes: [] }],
  });
}

/** The account's payment rows and their sum (minor units), read from D1 itself. */
export async function storedPayments(
  accountId: string,
  invoice?: string,
): Promise<{ n: number; sum: number }> {
  const row = await env.DB.prepare(
    "SELECT count(*) AS n, coalesce(sum(amount), 0) AS sum FROM payments WHERE account_id = ? AND (?2 IS NULL OR invoice_id = ?2)",
  )
    .bind(accountId, invoice ?? null)
    .first<{ n: number; sum: number }>();
  return row ?? { n: 0, sum: 0 };
}

/** The events of one type about one object, newest first, through the API. */
export async function eventsAbout(api: ApiClient, type: string, object: string): Promise<Event[]> {
  const res = await api.get(`/v1/events?type=${type}&related_object=${object}&limit=100`);
  expectStatus(res, 200);
  return (res.body as List<Event>).data;
}
