import { createCustomer } from "../../customers/create";
import { createCustomerBody, customerObject } from "../../customers/schemas";
import { writerOf } from "../../events/writer";
import { route } from "../../http/route";

export const createCustomerRoute = route({
  method: "post",
  path: "/v1/customers",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Customers",
    summary: "Create a customer",
    responses: { 201: { description: "The new customer.", schema: customerObject } },
    errors: ["invoice_prefix_taken"],
  }),
  request: { json: createCustomerBody },
  handler: async (c, { json: body }) => c.json(await createCustomer(writerOf(c), c.get("caller"), body), 201),
});
