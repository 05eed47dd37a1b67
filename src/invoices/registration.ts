import { type SQL, sql } from "drizzle-orm";
import type { InvoiceRow } from "../db/schema";
import type { Scope } from "../events/write";
import { ApiError } from "../http/errors";
import { nowMs } from "../lib/clock";
import { isoTimestamp, nextGeneratedAt, nextSeq } from "../verifactu/chain";
import { UnregistrableInvoice } from "../verifactu/format";
import { recordBody } from "../verifactu/record";
import type { InvoiceInsert } from "./build";
import type { Invoice } from "./schemas";
import { serializeInvoice } from "./serialize";

/**
 * An `es` invoice with its VERI*FACTU registration record, written by the same INSERT: the
 * record's body (built here, with the number the INSERT takes), its place in the chain and its
 * generation time. The hash follows when the chain is sealed (verifactu/seal.ts). An invoice
 * the record cannot hold is refused before anything is written. Returns the draft and its
 * pre-INSERT copy (`pendingCopy`).
 */
export function withRecord(
  built: InvoiceInsert,
  scope: Scope,
  corrected: InvoiceRow | null,
): { draft: InvoiceInsert; pending: Invoice } {
  const chained: InvoiceInsert = {
    ...built,
    verifactuSeq: nextSeq(scope),
    verifactuGeneratedAt: nextGeneratedAt(scope, nowMs()),
    verifactuStatus: "pending",
    verifactuErrors: [],
  };
  // The one pre-INSERT copy: the record's body reads it, and the invoice.issued event shows it.
  const pending = pendingCopy(chained);
  let body: ReturnType<typeof recordBody>;
  try {
    body = recordBody(pending, {
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
  const record = sql<string>`json_set(${JSON.stringify(body)}, '$.IDFactura.NumSerieFactura', ${built.number})`;
  return { draft: { ...chained, verifactuRecord: record }, pending };
}

/**
 * The invoice as the API shows it before the INSERT: number, record time and QR URL are
 * placeholders that `issuedPaths` fills from the database in the event's copy.
 */
export function pendingCopy(draft: InvoiceInsert): Invoice {
  return serializeInvoice({
    ...draft,
    counter: 0,
    number: "",
    verifactuSeq: draft.verifactuSeq && 0,
    verifactuGeneratedAt: draft.verifactuGeneratedAt && 0,
  });
}

/**
 * Where the API object holds what only the INSERT knows, as JSON paths with the SQL that gives
 * each value (`EventSpec.fill`): an event written in the invoice's batch shows what the row got.
 */
export function issuedPaths(invoice: Invoice, draft: InvoiceInsert): Record<string, SQL> {
  const { number } = draft;
  const paths: Record<string, SQL> = Object.fromEntries([
    ["$.number", number],
    ...invoice.payment_terms.options.map((_, i) => [`$.payment_terms.options[${i}].reference`, number]),
  ]);
  if (invoice.verifactu && draft.verifactuGeneratedAt) {
    // Numbers are A-Z, 0-9 and "-": URL-encoding leaves them as they are.
    const [head, tail] = invoice.verifactu.qr_url.split("numserie=");
    paths["$.verifactu.qr_url"] = sql`${`${head}numserie=`} || ${number} || ${tail}`;
    paths["$.verifactu.generated_at"] = isoTimestamp(draft.verifactuGeneratedAt);
  }
  return paths;
}
