import { and, eq } from "drizzle-orm";
import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { type CustomerRow, customers } from "../db/schema";
import { ownedBy } from "../db/scope";
import { type Page, paginate } from "../http/pagination";
import type { listCustomersQuery } from "./schemas";
import { searchPage, searchPlan, shortScope } from "./search";

/** One page of the caller's customers, newest first, searched by `q` and filtered by `country`. */
export async function listCustomers(
  db: Database,
  caller: Caller,
  query: z.output<typeof listCustomersQuery>,
): Promise<Page<CustomerRow>> {
  const { q, country } = query;
  const plan = q === undefined || q === "" ? null : searchPlan(q);
  if (plan === "index") return searchPage(db, caller, { q: q as string, country }, query);
  const where = and(
    plan === null ? ownedBy(customers, caller) : shortScope(q as string, caller, plan),
    country === undefined ? undefined : eq(customers.filterCountry, country),
  );
  return paginate(db, customers, "customer", where, query);
}
