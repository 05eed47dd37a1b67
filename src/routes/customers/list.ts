import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { customers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { listBody, paginate } from "../../lib/pagination";
import { ownedBy } from "../../lib/scope";
import type { listCustomersQuery } from "./schemas";
import { searchScope } from "./search";
import { serializeCustomer } from "./serialize";

/** `GET /v1/customers` */
export async function listCustomers(c: Context<AppEnv>, query: typeof listCustomersQuery._output) {
  const caller = c.get("caller");
  const where = and(
    query.q === undefined || query.q === "" ? ownedBy(customers, caller) : searchScope(query.q, caller),
    query.country === undefined ? undefined : eq(customers.filterCountry, query.country),
  );
  const page = await paginate(c.get("db"), customers, "customer", where, query);
  return c.json(listBody("/v1/customers", page, serializeCustomer));
}
