import type { InvoiceRow } from "../db/schema";

/**
 * Where an invoice's archive lives in the `ARCHIVE` bucket: one folder per invoice, by
 * account and environment. Objects are written once and never replaced (docs/operations.md).
 *
 * @example
 * archiveFolder(row) // "archive/acct_…/live/inv_…/"
 */
export const archiveFolder = (row: Pick<InvoiceRow, "accountId" | "live" | "id">): string =>
  `archive/${row.accountId}/${row.live ? "live" : "test"}/${row.id}/`;

/**
 * The objects of one state of the invoice: as issued (`invoice.json`, `invoice.pdf`) and, once
 * voided, the void's own (`invoice-void.json`, `invoice-void.pdf`), added beside them.
 */
export const stateName = (status: "issued" | "void"): string =>
  status === "void" ? "invoice-void" : "invoice";

/** A VERI*FACTU record's XML, as `GET /v1/invoices/{id}/verifactu-records/{record}` serves it. */
export const recordName = (recordId: string): string => `verifactu-${recordId}.xml`;

/** The states' JSON documents, the latest first: what a restore reads. */
export const JSON_NAMES = [`${stateName("void")}.json`, `${stateName("issued")}.json`] as const;

/** The archived JSON document of one state of an invoice. */
export type ArchivedInvoice = {
  archived_at: string;
  /** The invoice as the API served it then. */
  invoice: unknown;
  /** The stored rows, column by column as D1 holds them: what a restore inserts again. */
  rows: { invoice: Record<string, unknown>; verifactu_records: Record<string, unknown>[] };
  /** The other objects of the folder when this one was written (names relative to it). */
  objects: string[];
};
