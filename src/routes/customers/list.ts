import { and, eq } from "drizzle-orm";
import { customers } from "../../db/schema";
import { listOf } from "../../lib/api-schemas";
import { listBody, paginate } from "../../lib/pagination";
import { route } from "../../lib/route";
import { ownedBy } from "../../lib/scope";
import { customerObject, listCustomersQuery } from "./schemas";
import { searchScope } from "./search";
import { serializeCustomer } from "./serialize";

export const listCustomers = route({
  method: "get",
  path: "/v1/customers",
  tag: "Customers",
  summary: "List customers",
  request: { query: listCustomersQuery },
  responses: { 200: { description: "Customers, newest first.", schema: listOf(customerObject) } },
  handler: async (c, { query }) => {
    const caller = c.get("caller");
    const where = and(
      query.q === undefined || query.q === "" ? ownedBy(customers, caller) : searchScope(query.q, caller),
      query.country === undefined ? undefined : eq(customers.filterCountry, query.country),
    );
    const page = await paginate(c.get("db"), customers, "customer", where, query);
    return c.json(listBody("/v1/customers", page, serializeCustomer));
  },
});
