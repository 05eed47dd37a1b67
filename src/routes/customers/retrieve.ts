import { idParams, route } from "../../lib/route";
import { findCustomer } from "./find";
import { customerObject } from "./schemas";
import { serializeCustomer } from "./serialize";

export const retrieveCustomer = route({
  method: "get",
  path: "/v1/customers/:id",
  tag: "Customers",
  summary: "Retrieve a customer",
  request: { params: idParams },
  responses: { 200: { description: "The customer.", schema: customerObject } },
  handler: async (c, { params }) =>
    c.json(serializeCustomer(await findCustomer(c.get("db"), c.get("caller"), params.id))),
});
