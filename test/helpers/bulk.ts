import { env } from "cloudflare:workers";
import { newId } from "../../src/lib/ids";

/**
 * Inserts `count` customers straight into D1 (bypassing the API, for volume tests).
 * Returns their ids, oldest first.
 */
export async function insertCustomers(
  accountId: string,
  count: number,
  options: { live?: boolean; country?: (i: number) => string; name?: (i: number) => string } = {},
): Promise<string[]> {
  const ids: string[] = [];
  const now = new Date().toISOString();
  const statements: D1PreparedStatement[] = [];
  // D1 allows 100 bound parameters per statement, so this generated data goes in as literals.
  const lit = (v: string | number) => (typeof v === "number" ? String(v) : `'${v.replaceAll("'", "''")}'`);
  const perStatement = 200;
  for (let start = 0; start < count; start += perStatement) {
    const rows: string[] = [];
    for (let i = start; i < Math.min(count, start + perStatement); i++) {
      const id = newId("customer");
      ids.push(id);
      const country = options.country?.(i) ?? "ES";
      const values = [
        id,
        accountId,
        options.live ? 1 : 0,
        options.name?.(i) ?? `Customer ${i}`,
        `P${i.toString(36).toUpperCase().padStart(5, "0")}`,
        newId("taxId"),
        country,
        "local",
        `LOCAL${i}`,
        now,
        country,
        now,
        now,
      ];
      rows.push(`(${values.map(lit).join(",")})`);
    }
    statements.push(
      env.DB.prepare(
        `INSERT INTO customers (id, account_id, live, name, invoice_prefix, tax_id_id, tax_id_country, tax_id_type, tax_id_value, tax_id_created_at, filter_country, created_at, updated_at) VALUES ${rows.join(",")}`,
      ),
    );
  }
  for (let i = 0; i < statements.length; i += 20) await env.DB.batch(statements.slice(i, i + 20));
  return ids;
}
