import { findCustomer } from "../../customers/find";
import { customerObject } from "../../customers/schemas";
import { serializeCustomer } from "../../customers/serialize";
import { idParams, route } from "../../http/route";

export const retrieveCustomerRoute = route({
  method: "get",
  path: "/v1/customers/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Customers",
    summary: "Retrieve a customer",
    responses: { 200: { description: "The customer.", schema: customerObject } },
  }),
  request: { params: idParams },
  handler: async (c, { params }) =>
    c.json(serializeCustomer(await findCustomer(c.get("db"), c.get("caller"), params.id))),
});
