/** lifecycle.md "Payments", events: payment.created and payment.deleted (the payment), invoice.paid (the invoice) when it becomes paid. */
import { describe, expect, it } from "vitest";
import { getInvoice } from "../../helpers/invoices";
import { esInvoice, eventsAbout, paid } from "../../helpers/payments";

describe("Payment events", () => {
  it("payment.created carries the payment as returned, related to it at /v1/payments/{id}", async () => {
    const { api, invoice } = await esInvoice();
    const payment = await paid(api, invoice.id, { amount: "10.00", reference: "R-1" });
    const [event, ...more] = await eventsAbout(api, "payment.created", payment.id);
    expect(more).toEqual([]);
    expect(event?.data.object).toEqual(payment);
    expect(event?.related_object).toEqual({
      id: payment.id,
      type: "payment",
      url: `/v1/payments/${payment.id}`,
    });
  });

  it("invoice.paid exists exactly when the invoice is paid: none after a partial payment, one after the completing one", async () => {
    const { api, invoice } = await esInvoice();
    await paid(api, invoice.id, { amount: "21.00" });
    expect(await eventsAbout(api, "invoice.paid", invoice.id)).toHaveLength(0);
    await paid(api, invoice.id, { amount: "100.00", paid_on: "2026-01-12" });
    const [event, ...more] = await eventsAbout(api, "invoice.paid", invoice.id);
    expect(more).toEqual([]);
    expect(event?.related_object).toEqual({
      id: invoice.id,
      type: "invoice",
      url: `/v1/invoices/${invoice.id}`,
    });
  });

  it("invoice.paid's data.object is the invoice as it is after the payment", async () => {
    const { api, invoice } = await esInvoice();
    await paid(api, invoice.id, { amount: "121.00", paid_on: "2026-01-12" });
    const [event] = await eventsAbout(api, "invoice.paid", invoice.id);
    const now = await getInvoice(api, invoice.id);
    expect(event?.data.object).toEqual(now);
    expect(event?.data.object).toMatchObject({
      payment_status: "paid",
      amount_paid: "121.00",
      paid_on: "2026-01-12",
    });
  });
});
