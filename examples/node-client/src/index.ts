/**
 * The Invoicing API from Node with types generated from its OpenAPI document: create a
 * Spanish customer, issue an invoice with IVA and IRPF, receive the signed `invoice.issued`
 * webhook, and fetch the full event.
 *
 *   API_BASE=http://127.0.0.1:8787 API_KEY=sk_test_es_localdev npx tsx examples/node-client/src/index.ts
 */
import { randomUUID } from "node:crypto";
import createClient from "openapi-fetch";
import type { components, paths } from "../api";
import { startReceiver } from "./receiver";

type ApiError = components["schemas"]["Error"];
type Invoice = components["schemas"]["Invoice"];

const api = createClient<paths>({
  baseUrl: process.env.API_BASE ?? "http://127.0.0.1:8787",
  headers: { Authorization: `Bearer ${process.env.API_KEY ?? "sk_test_es_localdev"}` },
});

/** The API's error envelope as an exception: the code to branch on, and the id to quote to support. */
function failed(step: string, { error }: ApiError): Error {
  const param = error.param ? ` (param ${error.param})` : "";
  return new Error(`${step}: ${error.code}: ${error.message}${param} [request ${error.request_id}]`);
}

// An Idempotency-Key names one operation: a retry after a timeout sends the same key and gets
// the first answer back instead of a second customer or invoice. Derive it from your own
// record (an order id) in real code.
const idempotent = (key: string) => ({ header: { "Idempotency-Key": key } });

// 1. A webhook receiver, and an event destination pointing at it. Loopback http URLs are
// accepted only by a local development server (`npm start`); production needs public https.
const receiver = await startReceiver();
const { data: destination, error: destinationError } = await api.POST("/v1/event-destinations", {
  params: idempotent(randomUUID()),
  body: { name: "node-client example", url: receiver.url, enabled_events: ["invoice.issued"] },
});
if (destinationError) throw failed("register the event destination", destinationError);
receiver.secret = destination.secret ?? ""; // returned on create (and retrieve), never in lists

try {
  // 2. A Spanish customer: an ordinary Spanish invoice needs the customer's address.
  const { data: customer, error: customerError } = await api.POST("/v1/customers", {
    params: idempotent(randomUUID()),
    body: {
      name: "Cliente Ejemplo SA",
      tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
      email: "facturas@cliente.example",
      address: { line_1: "Gran Vía 2", city: "Madrid", postal_code: "28013", country: "ES" },
    },
  });
  if (customerError) throw failed("create the customer", customerError);
  console.log(`Customer ${customer.id} created: ${customer.name} (${customer.tax_id.value})`);

  // 3. An invoice: one line with IVA at the general rate, and IRPF withheld for a professional.
  // Quantities and prices are decimal strings, never floats.
  const { data: invoice, error: invoiceError } = await api.POST("/v1/invoices", {
    params: idempotent(randomUUID()),
    body: {
      customer: customer.id,
      lines: [
        {
          description: "Consultoría, 10 horas",
          quantity: "10",
          unit_price: "60.00",
          taxes: [
            { tax: "iva", rule: "general" },
            { tax: "irpf", rule: "professional" },
          ],
        },
      ],
    },
  });
  if (invoiceError) throw failed("issue the invoice", invoiceError);
  printInvoice(invoice);

  // 4. The webhook: the receiver has checked its signature before anything else.
  const delivered = await receiver.waitFor(
    (event) => event.type === "invoice.issued" && event.related_object.id === invoice.id,
    30_000,
  );
  console.log(`Webhook ${delivered.type} ${delivered.id} received: signature verified`);

  // 5. Deliveries are thin: the event's snapshot of the invoice comes from the API.
  const { data: event, error: eventError } = await api.GET("/v1/events/{id}", {
    params: { path: { id: delivered.id } },
  });
  if (eventError) throw failed("fetch the event", eventError);
  const snapshot = event.data.object as Invoice; // invoice.issued: the invoice as issued
  console.log(`Event ${event.id} fetched: ${event.type}, invoice ${snapshot.number} of ${event.created_at}`);
} finally {
  // An account has at most 16 destinations: this example removes its own.
  await api.DELETE("/v1/event-destinations/{id}", { params: { path: { id: destination.id } } });
  await receiver.close();
}

function printInvoice(invoice: Invoice) {
  console.log(`Invoice ${invoice.number} issued (${invoice.id})`);
  for (const row of invoice.tax_breakdown) {
    const rate = row.rate === null ? "" : `${row.rate} of ${row.base} = `;
    console.log(`  ${row.tax ?? row.name} ${row.rule ?? ""}: ${rate}${row.amount ?? "0.00"} (${row.effect})`);
  }
  const { subtotal, total, amount_payable, currency } = invoice;
  console.log(`  subtotal ${subtotal}, total ${total}, amount payable ${amount_payable} ${currency}`);
}
