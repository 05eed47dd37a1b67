import { type SQL, sql } from "drizzle-orm";
import { invoices } from "../db/schema";

/**
 * The invoice object's `verifactu` fields as the row holds them when an event's INSERT runs
 * (`EventSpec.fill`), for writes that may race with a record's verdict, seal or a new record:
 * the same derivation as `verifactuOf` (serialize.ts), in SQL over `verifactu_records`.
 */
export function verifactuFill(): Record<string, SQL> {
  const i = invoices;
  const each = sql`json_each(${i.verifactuRecords})`;
  const latest = (field: string) =>
    sql`(SELECT json_extract(value, ${`$.${field}`}) FROM ${each} WHERE json_extract(value, '$.kind') <> 'cancellation' ORDER BY key DESC LIMIT 1)`;
  const cancellation = sql`(SELECT json_object('status', CASE json_extract(value, '$.status') WHEN 'accepted_with_errors' THEN 'accepted' ELSE json_extract(value, '$.status') END, 'hash', json_extract(value, '$.hash'), 'previous_hash', json_extract(value, '$.previous_hash'), 'generated_at', json_extract(value, '$.generated_at'), 'csv', json_extract(value, '$.csv'), 'errors', json_extract(value, '$.errors')) FROM ${each} WHERE json_extract(value, '$.kind') = 'cancellation' ORDER BY key DESC LIMIT 1)`;
  const url = sql`'/v1/invoices/' || ${i.id} || '/verifactu-records/' || json_extract(value, '$.id')`;
  return {
    "$.verifactu.status": latest("status"),
    "$.verifactu.hash": latest("hash"),
    "$.verifactu.previous_hash": latest("previous_hash"),
    "$.verifactu.generated_at": latest("generated_at"),
    "$.verifactu.errors": sql`json(${latest("errors")})`,
    "$.verifactu.records": sql`(SELECT json_group_array(json_set(value, '$.url', ${url})) FROM ${each})`,
    "$.verifactu.cancellation": sql`json(${cancellation})`,
  };
}
