import { findCustomer } from "../../customers/find";
import { customerObject } from "../../customers/schemas";
import { serializeCustomer } from "../../customers/serialize";
import { idParams, route } from "../../http/route";

export const retrieveCustomerRoute = route({
  method: "get",
  path: "/v1/customers/:id",
  tag: "Customers",
  summary: "Retrieve a customer",
  request: { params: idParams },
  responses: { 200: { description: "The customer.", schema: customerObject } },
  handler: async (c, { params }) =>
    c.json(serializeCustomer(await findCustomer(c.get("db"), c.get("caller"), params.id))),
});
