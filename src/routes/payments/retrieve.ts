import { idParams, route } from "../../http/route";
import { findPayment } from "../../payments/find";
import { paymentObject } from "../../payments/schemas";
import { serializePayment } from "../../payments/serialize";

export const retrievePaymentRoute = route({
  method: "get",
  path: "/v1/payments/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Payments",
    summary: "Retrieve a payment",
    responses: { 200: { description: "The payment.", schema: paymentObject } },
  }),
  request: { params: idParams },
  handler: async (c, { params }) =>
    c.json(serializePayment(await findPayment(c.get("db"), c.get("caller"), params.id))),
});
