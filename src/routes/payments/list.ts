import { listBody } from "../../http/pagination";
import { route } from "../../http/route";
import { listOf } from "../../http/schemas";
import { listPayments } from "../../payments/list";
import { listPaymentsQuery, paymentObject } from "../../payments/schemas";
import { serializePayment } from "../../payments/serialize";

export const listPaymentsRoute = route({
  method: "get",
  path: "/v1/payments",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Payments",
    summary: "List payments",
    responses: { 200: { description: "Payments, newest first.", schema: listOf(paymentObject) } },
  }),
  request: { query: listPaymentsQuery },
  handler: async (c, { query }) => {
    const page = await listPayments(c.get("db"), c.get("caller"), query);
    return c.json(listBody("/v1/payments", page, serializePayment));
  },
});
