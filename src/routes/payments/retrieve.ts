import { idParams, route } from "../../http/route";
import { findPayment } from "../../payments/find";
import { paymentObject } from "../../payments/schemas";
import { serializePayment } from "../../payments/serialize";

export const retrievePaymentRoute = route({
  method: "get",
  path: "/v1/payments/:id",
  tag: "Payments",
  summary: "Retrieve a payment",
  request: { params: idParams },
  responses: { 200: { description: "The payment.", schema: paymentObject } },
  handler: async (c, { params }) =>
    c.json(serializePayment(await findPayment(c.get("db"), c.get("caller"), params.id))),
});
