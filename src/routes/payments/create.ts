import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";
import { createPayment } from "../../payments/create";
import { createPaymentBody, paymentObject } from "../../payments/schemas";

/** Records a payment received against an issued invoice (lifecycle.md "Payments"). */
export const createPaymentRoute = route({
  method: "post",
  path: "/v1/invoices/:id/payments",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Payments",
    summary: "Record a payment",
    responses: { 201: { description: "The payment.", schema: paymentObject } },
    errors: ["invoice_not_payable", "payment_not_applicable", "payment_exceeds_amount_remaining"],
  }),
  request: { params: idParams, json: createPaymentBody },
  handler: async (c, { params: { id }, json: body }) =>
    c.json(await createPayment(writerOf(c), c.get("caller"), id, body), 201),
});
