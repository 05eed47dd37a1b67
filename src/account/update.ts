import { and, eq, inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { SIMPLIFIED_LIMITS } from "../constants";
import type { Caller } from "../contracts/caller";
import { counted, type Database } from "../db/client";
import { isForeignKeyViolation } from "../db/errors";
import { accountDefaultPaymentInstructions, accountEnvironments, paymentInstructions } from "../db/schema";
import { ownedBy } from "../db/scope";
import type { Writer } from "../events/write";
import { ApiError } from "../http/errors";
import { nowIso } from "../lib/clock";
import { isId } from "../lib/ids";
import { addressColumns, addressSet } from "../party/address";
import { NO_TAX_ID, newTaxIdColumns } from "../tax-ids/columns";
import { insertTaxId, queueAfterWrite, taxIdRow, verifiesFor } from "../tax-ids/write";
import { issuerNifOf } from "../verifactu/representation";
import { refuseIssuerNifInUse } from "./issuer-nif";
import { type AccountState, loadAccount } from "./load";
import { representationColumns } from "./representation";
import type { UpdateAccountBody } from "./schemas";

const PARAM = "default_payment_instructions";

/**
 * Per environment: `default_payment_instructions` (an ordered list, first preferred, of the
 * environment's instructions, no duplicates, at most ten; it replaces the previous list) and
 * the issuer profile (`legal_name`, `tax_id`, `address`, `einvoicing`; null clears, an address
 * merges) and `simplified_invoices` (null resets it to the default, 400.00 / art_4_1).
 * Returns the account as it is after the write.
 */
export async function updateAccount(
  w: Writer,
  caller: Caller,
  body: UpdateAccountBody,
): Promise<AccountState> {
  if (Object.keys(body).length > 0) await applyUpdate(w, caller, body);
  return loadAccount(w.db, caller);
}

async function applyUpdate(w: Writer, caller: Caller, body: UpdateAccountBody): Promise<void> {
  const { db } = w;
  const { account, environment: current } = await loadAccount(db, caller);
  const now = nowIso();
  // A replaced Tax ID is a new object (new id), with its own row in `tax_ids`.
  const taxId = body.tax_id ? newTaxIdColumns(body.tax_id, verifiesFor(caller, w.env)) : null;
  const stored = taxId && taxIdRow(taxId, caller, { type: "account", id: caller.accountId });
  // The issuer NIF this environment has after the write (VERI*FACTU's chain and representation).
  const nifBefore = current && issuerNifOf(current);
  const nif = body.tax_id === undefined ? nifBefore : taxId && issuerNifOf(taxId);
  const address =
    body.address === undefined ? null : addressColumns(body.address, current?.addressLine1 ? current : null);
  const profile = {
    ...(body.simplified_invoices !== undefined && simplifiedColumns(body.simplified_invoices)),
    ...(body.legal_name !== undefined && { legalName: body.legal_name }),
    ...(body.einvoicing === null
      ? { einvoicingPeppolId: null }
      : body.einvoicing?.peppol_id !== undefined && { einvoicingPeppolId: body.einvoicing.peppol_id }),
    ...(body.tax_id !== undefined && (taxId ?? NO_TAX_ID)),
    ...(body.verifactu !== undefined && representationColumns(w.env, account, body.verifactu, nif)),
    ...address,
  };
  // Only this environment's row moves: the other environment sees no change. An existing row
  // takes the address by field at write time, so a concurrent PATCH of another field survives.
  const statements: BatchItem<"sqlite">[] = [
    db
      .insert(accountEnvironments)
      .values({ accountId: caller.accountId, live: caller.live, ...profile, updatedAt: now })
      .onConflictDoUpdate({
        target: [accountEnvironments.accountId, accountEnvironments.live],
        set: {
          ...profile,
          ...(address && addressSet(body.address ?? null, address, accountEnvironments)),
          updatedAt: now,
        },
      }),
  ];
  if (stored) statements.push(insertTaxId(db, stored));
  if (body.default_payment_instructions !== undefined) {
    statements.push(...(await defaultsStatements(db, caller, body.default_payment_instructions)));
  }
  if (nif && nif !== nifBefore) await refuseIssuerNifInUse(db, w.env, caller, nif);
  try {
    // One batch is one transaction: the old list is never half replaced.
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (err) {
    // An instruction deleted between the check and this write.
    if (isForeignKeyViolation(err))
      throw new ApiError("parameter_invalid", "A payment instruction no longer exists.", { param: PARAM });
    throw err;
  }
  if (stored) queueAfterWrite(w, [stored]);
}

/**
 * The limit follows from the basis (RD 1619/2012 art. 4); it is sent too so that a client
 * states the limit it expects. Only an authorisation has a reference to require; art. 4.1 needs
 * none, so one sent with it is refused rather than stored unused.
 */
function simplifiedColumns(s: UpdateAccountBody["simplified_invoices"]) {
  if (!s) return { simplifiedBasis: null, simplifiedReference: null };
  const param = "simplified_invoices.";
  const limit = SIMPLIFIED_LIMITS[s.basis];
  if (s.limit !== limit)
    throw new ApiError("parameter_invalid", `Basis ${s.basis} has the limit ${limit}.`, {
      param: `${param}limit`,
    });
  const reference = s.reference ?? null;
  if (!reference && s.basis === "aeat_authorisation")
    throw new ApiError("parameter_missing", "An AEAT authorisation needs its reference.", {
      param: `${param}reference`,
    });
  if (reference && s.basis === "art_4_1")
    throw new ApiError("parameter_invalid", "art_4_1 takes no reference.", { param: `${param}reference` });
  return { simplifiedBasis: s.basis, simplifiedReference: reference };
}

function noSuchInstruction(id: string, index: number): ApiError {
  return new ApiError("parameter_invalid", `No such payment instruction: '${id}'.`, {
    param: `${PARAM}.${index}`,
  });
}

/** Checks the new default list and returns the statements that replace the old one. */
async function defaultsStatements(
  db: Database,
  caller: Caller,
  ids: string[],
): Promise<BatchItem<"sqlite">[]> {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (!isId("paymentInstruction", id)) throw noSuchInstruction(id, i);
    if (seen.has(id)) {
      throw new ApiError("parameter_invalid", `'${id}' appears more than once.`, { param: `${PARAM}.${i}` });
    }
    seen.add(id);
  });
  if (ids.length > 0) {
    const found = await counted(
      db,
      db
        .select({ id: paymentInstructions.id })
        .from(paymentInstructions)
        .where(and(inArray(paymentInstructions.id, ids), ownedBy(paymentInstructions, caller))),
    );
    const existing = new Set(found.map((r) => r.id));
    const missing = ids.findIndex((id) => !existing.has(id));
    if (missing !== -1) throw noSuchInstruction(ids[missing] as string, missing);
  }
  const table = accountDefaultPaymentInstructions;
  const clear = db
    .delete(table)
    .where(and(eq(table.accountId, caller.accountId), eq(table.live, caller.live)));
  if (ids.length === 0) return [clear];
  const rows = ids.map((id, position) => ({
    accountId: caller.accountId,
    live: caller.live,
    position,
    paymentInstructionId: id,
  }));
  return [clear, db.insert(table).values(rows)];
}
