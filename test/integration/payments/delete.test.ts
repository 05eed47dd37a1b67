/** DELETE /v1/payments/{id}: a payment recorded by mistake; the invoice's payment state is recomputed in the same batch. */
import { describe, expect, it } from "vitest";
import { client, expectStatus } from "../../helpers/api";
import { createAccount } from "../../helpers/factories";
import { getInvoice } from "../../helpers/invoices";
import { esInvoice, eventsAbout, paid, storedPayments } from "../../helpers/payments";
import { expectError } from "../../helpers/security";

describe("DELETE /v1/payments/{id}", () => {
  it("returns 200 {id, object: payment, deleted: true}; the payment is then 404 and gone from the list", async () => {
    const { api, account, invoice } = await esInvoice();
    const payment = await paid(api, invoice.id, { amount: "10.00" });
    const res = await api.del(`/v1/payments/${payment.id}`);
    expectStatus(res, 200);
    expect(res.body).toEqual({ id: payment.id, object: "payment", deleted: true });
    expectError(await api.get(`/v1/payments/${payment.id}`), 404, "resource_missing");
    expectError(await api.del(`/v1/payments/${payment.id}`), 404, "resource_missing");
    expect(await storedPayments(account.id)).toEqual({ n: 0, sum: 0 });
  });

  it("deleting a payment of a paid invoice recomputes it: partially_paid, amount_paid and amount_remaining, paid_on null", async () => {
    const { api, invoice } = await esInvoice();
    await paid(api, invoice.id, { amount: "21.00", paid_on: "2026-01-10" });
    const last = await paid(api, invoice.id, { amount: "100.00", paid_on: "2026-01-12" });
    expect((await getInvoice(api, invoice.id)).payment_status).toBe("paid");
    expectStatus(await api.del(`/v1/payments/${last.id}`), 200);
    expect(await getInvoice(api, invoice.id)).toMatchObject({
      payment_status: "partially_paid",
      amount_paid: "21.00",
      amount_remaining: "100.00",
      paid_on: null,
    });
  });

  it("deleting the only payment makes the invoice unpaid again (amount_paid 0.00)", async () => {
    const { api, invoice } = await esInvoice();
    const payment = await paid(api, invoice.id, { amount: "121.00" });
    expectStatus(await api.del(`/v1/payments/${payment.id}`), 200);
    expect(await getInvoice(api, invoice.id)).toMatchObject({
      payment_status: "unpaid",
      amount_paid: "0.00",
      amount_remaining: "121.00",
      paid_on: null,
    });
    // The room is back: the invoice can be paid again, and becomes paid again.
    await paid(api, invoice.id, { amount: "121.00", paid_on: "2026-03-01" });
    expect(await getInvoice(api, invoice.id)).toMatchObject({
      payment_status: "paid",
      paid_on: "2026-03-01",
    });
    expect(await eventsAbout(api, "invoice.paid", invoice.id)).toHaveLength(2);
  });

  it("records payment.deleted with the payment as it was", async () => {
    const { api, invoice } = await esInvoice();
    const payment = await paid(api, invoice.id, { amount: "5.00" });
    expectStatus(await api.del(`/v1/payments/${payment.id}`), 200);
    const [event, ...more] = await eventsAbout(api, "payment.deleted", payment.id);
    expect(more).toEqual([]);
    expect(event?.data.object).toEqual(payment);
    expect(event?.related_object).toEqual({
      id: payment.id,
      type: "payment",
      url: `/v1/payments/${payment.id}`,
    });
  });

  it("a payment of another account or of the other environment is 404, and nothing changes", async () => {
    const { api, account, invoice } = await esInvoice();
    const payment = await paid(api, invoice.id, { amount: "5.00" });
    const other = client((await createAccount()).testKey);
    const res = await other.del(`/v1/payments/${payment.id}`);
    expectError(res, 404, "resource_missing");
    expect(res.headers.get("D1-Rows-Written")).toBe("0");
    expectError(await client(account.liveKey).del(`/v1/payments/${payment.id}`), 404, "resource_missing");
    expect(await storedPayments(account.id)).toEqual({ n: 1, sum: 500 });
    expect((await getInvoice(api, invoice.id)).amount_paid).toBe("5.00");
  });
});
