import { and, eq, ne, or } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { counted, createDb, type Database } from "../db/client";
import { accounts, accountEnvironments as ae } from "../db/schema";
import { shardEnv, shardNames } from "../db/shards";
import { ApiError } from "../http/errors";

/**
 * One Live account per issuer NIF in a deployment (verifactu-system.md §6): a Live key may not
 * give its `es` account an issuer NIF that another `es` account's Live environment has as its
 * issuer Tax ID now (as `es_nif`, or `eu_vat` ES…). Test environments are not limited. Every
 * shard is asked (one query each); docs/going-live-spain.md says what this guarantees.
 */
export async function refuseIssuerNifInUse(
  db: Database,
  env: Env,
  caller: Caller,
  nif: string,
): Promise<void> {
  if (!caller.live || caller.taxRegime !== "es") return;
  const query = (d: Database) =>
    counted(
      d,
      d
        .select({ id: ae.accountId })
        .from(ae)
        .innerJoin(accounts, eq(accounts.id, ae.accountId))
        .where(
          and(
            eq(ae.live, true),
            eq(accounts.taxRegime, "es"),
            ne(ae.accountId, caller.accountId),
            or(
              and(eq(ae.taxIdType, "es_nif"), eq(ae.taxIdValue, nif)),
              and(eq(ae.taxIdType, "eu_vat"), eq(ae.taxIdCountry, "ES"), eq(ae.taxIdValue, `ES${nif}`)),
            ),
          ),
        )
        .limit(1),
    );
  const found = await Promise.all(
    shardNames(env).map((name) => query(name === caller.shard ? db : createDb(shardEnv(env, name).DB))),
  );
  if (found.some((rows) => rows.length > 0)) {
    throw new ApiError(
      "issuer_tax_id_in_use",
      `Another account of this deployment issues Live invoices under the NIF ${nif}: one Live account per issuer NIF.`,
      { param: "tax_id.value" },
    );
  }
}
