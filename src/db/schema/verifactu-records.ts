import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { VERIFACTU_RECORD_KINDS, VERIFACTU_STATUSES } from "../../constants";
import type { RegistrationError, StoredRecord } from "../../contracts/verifactu-record";
import { accounts } from "./accounts";
import { invoices } from "./invoices";

/**
 * The VERI*FACTU chains (verifactu-system.md): every record this system generated, one row
 * each: an invoice's registration (`RegistroAlta`), its subsanaciones (a new `RegistroAlta`
 * with `Subsanacion` S) and its cancellation (`RegistroAnulacion`). One chain per account,
 * environment and issuer NIF, ordered by `seq`; the INSERT that writes a record takes the
 * chain's next place and generation time, and the hash follows in chain order
 * (src/verifactu/seal.ts), since SQLite cannot hash. The invoice keeps a summary of its records
 * (`invoices.verifactu_records`), written in the same batches as these rows.
 */
export const verifactuRecords = sqliteTable(
  "verifactu_records",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    /** The chain: the issuer's NIF (an account whose NIF changes starts a new chain). */
    issuerNif: text("issuer_nif").notNull(),
    seq: integer("seq").notNull(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id),
    kind: text("kind", { enum: VERIFACTU_RECORD_KINDS }).notNull(),
    /** Where this record's summary is in the invoice's `verifactu_records` array. */
    position: integer("position").notNull(),
    status: text("status", { enum: VERIFACTU_STATUSES }).notNull(),
    /** Without link, time and hash until sealed; whole (as sent) after. */
    record: text("record", { mode: "json" }).$type<StoredRecord>().notNull(),
    hash: text("hash"),
    /** Epoch ms, never before the chain's previous record's. */
    generatedAt: integer("generated_at").notNull(),
    /** Generated while an incident was open: sent with `RemisionVoluntaria/Incidencia` S. */
    incident: integer("incident", { mode: "boolean" }).notNull().default(false),
    /** Requests that carried it (the sandbox's steering counts them). */
    attempts: integer("attempts").notNull().default(0),
    errors: text("errors", { mode: "json" }).$type<RegistrationError[]>().notNull().default(sql`'[]'`),
  },
  (t) => [
    // One record per place: two concurrent writers can never fork a chain.
    uniqueIndex("verifactu_records_chain_idx").on(t.accountId, t.live, t.issuerNif, t.seq),
    // What the submission consumer, the status endpoint and the sweep look for, oldest first.
    index("verifactu_records_pending_idx")
      .on(t.accountId, t.live, t.generatedAt, t.seq)
      .where(sql`${t.status} = 'pending'`),
    index("verifactu_records_invoice_idx").on(t.invoiceId),
  ],
);

export type VerifactuRecordRow = typeof verifactuRecords.$inferSelect;
