import { type SQL, sql } from "drizzle-orm";
import type { RecordSummary } from "../contracts/verifactu-record";
import type { Database } from "../db/client";
import type { InvoiceRow } from "../db/schema";
import { invoices } from "../db/schema";
import type { Scope } from "../events/write";
import { ApiError } from "../http/errors";
import { nowMs } from "../lib/clock";
import { newId } from "../lib/ids";
import { addRecord, pendingSummary } from "../verifactu/chain";
import { UnregistrableInvoice } from "../verifactu/format";
import { recordBody } from "../verifactu/record";
import { softwareFor } from "../verifactu/software";
import type { InvoiceInsert } from "./build";
import type { Invoice } from "./schemas";
import { serializeInvoice } from "./serialize";

/**
 * An `es` invoice with its VERI*FACTU registration record: the invoice row (`verifactu_status`
 * pending) and the statements that add the record to its issuer's chain after the invoice's
 * INSERT (`addRecord`), the record's body built here with the number the INSERT takes. The hash
 * follows when the chain is sealed (verifactu/seal.ts). An invoice the record cannot hold is
 * refused before anything is written. Returns the row, its pre-INSERT copy (`pendingCopy`)
 * and the record's statements.
 */
export function withRecord(
  db: Database,
  env: Env,
  built: InvoiceInsert,
  scope: Scope,
  corrected: InvoiceRow | null,
) {
  const recordId = newId("verifactuRecord");
  const now = nowMs();
  const summary = pendingSummary(recordId, "registration", now);
  const row: InvoiceInsert = { ...built, verifactuStatus: "pending", verifactuRecords: [] };
  // The one pre-INSERT copy: the record's body reads it, and the invoice.issued event shows it.
  const pending = pendingCopy({ ...row, verifactuRecords: [summary] });
  let body: ReturnType<typeof recordBody>;
  try {
    body = recordBody(pending, {
      software: softwareFor(env, scope.live) ?? undefined,
      corrected: corrected && {
        number: corrected.number,
        issue_date: corrected.issueDate,
        operation_date: corrected.operationDate,
      },
    });
  } catch (err) {
    if (!(err instanceof UnregistrableInvoice)) throw err;
    throw new ApiError(
      "parameter_invalid",
      `This invoice cannot be registered with VERI*FACTU: ${err.message}.`,
      {
        param: err.param,
      },
    );
  }
  const number = sql`(SELECT ${invoices.number} FROM ${invoices} WHERE ${invoices.id} = ${row.id})`;
  const record = addRecord(db, {
    id: recordId,
    chain: { ...scope, nif: body.IDFactura.IDEmisorFactura },
    invoiceId: row.id,
    kind: "registration",
    body: sql<string>`json_set(${JSON.stringify(body)}, '$.IDFactura.NumSerieFactura', ${number})`,
    now,
    when: sql`1`,
  });
  return { row, pending, record };
}

/**
 * The invoice as the API shows it before the INSERT: number, record time and QR URL are
 * placeholders that `issuedPaths` fills from the database in the event's copy.
 */
export function pendingCopy(row: InvoiceInsert & { verifactuRecords: RecordSummary[] | null }): Invoice {
  return serializeInvoice({ ...row, counter: 0, number: "" });
}

/**
 * Where the API object holds what only the INSERTs know, as JSON paths with the SQL that gives
 * each value (`EventSpec.fill`): an event written in the invoice's batch shows what the row got.
 */
export function issuedPaths(
  invoice: Invoice,
  row: InvoiceInsert,
  generatedAt?: SQL<string>,
): Record<string, SQL> {
  const { number } = row;
  const paths: Record<string, SQL> = Object.fromEntries([
    ["$.number", number],
    ...invoice.payment_terms.options.map((_, i) => [`$.payment_terms.options[${i}].reference`, number]),
  ]);
  if (invoice.verifactu && generatedAt) {
    // Numbers are A-Z, 0-9 and "-": URL-encoding leaves them as they are.
    const [head, tail] = invoice.verifactu.qr_url.split("numserie=");
    paths["$.verifactu.qr_url"] = sql`${`${head}numserie=`} || ${number} || ${tail}`;
    paths["$.verifactu.generated_at"] = generatedAt;
    paths["$.verifactu.records[0].generated_at"] = generatedAt;
  }
  return paths;
}
