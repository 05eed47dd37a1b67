import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { findCustomer } from "./find";
import { serializeCustomer } from "./serialize";

/** `GET /v1/customers/:id` */
export async function retrieveCustomer(c: Context<AppEnv>, id: string) {
  return c.json(serializeCustomer(await findCustomer(c.get("db"), c.get("caller"), id)));
}
