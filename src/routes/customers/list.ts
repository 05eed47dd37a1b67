import { and, eq } from "drizzle-orm";
import { customers } from "../../db/schema";
import { listOf } from "../../http/schemas";
import { listBody, paginate } from "../../http/pagination";
import { route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { customerObject, listCustomersQuery } from "../../customers/schemas";
import { searchPage, searchPlan, shortScope } from "../../customers/search";
import { serializeCustomer } from "../../customers/serialize";

export const listCustomers = route({
  method: "get",
  path: "/v1/customers",
  tag: "Customers",
  summary: "List customers",
  request: { query: listCustomersQuery },
  responses: { 200: { description: "Customers, newest first.", schema: listOf(customerObject) } },
  handler: async (c, { query }) => {
    const caller = c.get("caller");
    const db = c.get("db");
    const { q, country } = query;
    const plan = q === undefined || q === "" ? null : searchPlan(q);
    if (plan === "index") {
      const page = await searchPage(db, caller, { q: q as string, country }, query);
      return c.json(listBody("/v1/customers", page, serializeCustomer));
    }
    const where = and(
      plan === null ? ownedBy(customers, caller) : shortScope(q as string, caller, plan),
      country === undefined ? undefined : eq(customers.filterCountry, country),
    );
    const page = await paginate(db, customers, "customer", where, query);
    return c.json(listBody("/v1/customers", page, serializeCustomer));
  },
});
