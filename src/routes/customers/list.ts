import { listCustomers } from "../../customers/list";
import { customerObject, listCustomersQuery } from "../../customers/schemas";
import { serializeCustomer } from "../../customers/serialize";
import { listBody } from "../../http/pagination";
import { route } from "../../http/route";
import { listOf } from "../../http/schemas";

export const listCustomersRoute = route({
  method: "get",
  path: "/v1/customers",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Customers",
    summary: "List customers",
    responses: { 200: { description: "Customers, newest first.", schema: listOf(customerObject) } },
  }),
  request: { query: listCustomersQuery },
  handler: async (c, { query }) =>
    c.json(
      listBody("/v1/customers", await listCustomers(c.get("db"), c.get("caller"), query), serializeCustomer),
    ),
});
