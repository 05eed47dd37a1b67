/**
 * The migration that introduced `tax_ids` copies every Tax ID that existed before it (kept
 * only inline, on its customer or account environment), so `GET /v1/tax-ids/{id}` finds it.
 * This file's database holds only such inline Tax IDs when the backfill is run again.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { client, expectStatus } from "../../helpers/api";
import { createAccount, insertCustomers } from "../../helpers/factories";

async function runBackfill(): Promise<void> {
  const migration = env.TEST_MIGRATIONS.find((m) => m.name.endsWith("_tax_ids_backfill.sql"));
  if (!migration) throw new Error("no tax_ids backfill migration");
  for (const query of migration.queries) await env.DB.prepare(query).run();
}

describe("the tax_ids backfill migration", () => {
  it("gives every customer's and account's Tax ID its own row, as the owner shows it", async () => {
    const account = await createAccount();
    const [customerId] = await insertCustomers(account.id, 1);
    await env.DB.prepare(
      `INSERT INTO account_environments (account_id, live, tax_id_id, tax_id_country, tax_id_type, tax_id_value, tax_id_created_at, updated_at)
       VALUES (?, 1, 'txi_01JD0000000000000000000000', 'ES', 'eu_vat', 'ESB12345674', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    )
      .bind(account.id)
      .run();
    await runBackfill();

    const test = client(account.testKey);
    const customer = await test.get(`/v1/customers/${customerId}`);
    expectStatus(customer, 200);
    expect((await test.get(`/v1/tax-ids/${customer.body.tax_id.id}`)).body).toEqual(customer.body.tax_id);

    const live = client(account.liveKey);
    const accountTaxId = (await live.get("/v1/account")).body.tax_id;
    expect(accountTaxId).toMatchObject({ value: "ESB12345674", verification: null });
    expect((await live.get(`/v1/tax-ids/${accountTaxId?.id}`)).body).toEqual(accountTaxId);
  });
});
