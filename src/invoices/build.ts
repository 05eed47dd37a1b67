import { type SQL, sql } from "drizzle-orm";
import {
  type CorrectionReason,
  type InvoiceNumbering,
  type InvoiceType,
  SIMPLIFIED_LIMITS,
} from "../constants";
import type { Caller } from "../contracts/caller";
import type { CustomerRow, InvoiceRow, PaymentInstructionRow } from "../db/schema";
import { ApiError } from "../http/errors";
import { nowIso, nowMs } from "../lib/clock";
import { currencyExponent } from "../lib/currencies";
import { accountToday } from "../lib/dates";
import { newId } from "../lib/ids";
import { formatMinor, toMinor } from "../lib/money";
import { addressOf } from "../party/address";
import { customerEinvoicingOf } from "../party/einvoicing";
import { spanishNif } from "../verifactu/record";
import { type ComputedInvoice, computeInvoice, type LineInput } from "./compute";
import type { IssueContext } from "./context";
import { invoiceNumber, nextCounter } from "./numbering";
import { checkRecipient } from "./recipient";

export type IssueRequest = {
  type: InvoiceType;
  series: string;
  numbering: InvoiceNumbering;
  customer: string | null | undefined;
  issueDate: string | undefined;
  operationDate: string | null;
  currency: string;
  lines: (LineInput & { unit_code?: string | undefined })[];
  dueDate: string | null;
  options: string[] | undefined;
  corrects: { invoice: string; reason: CorrectionReason } | undefined;
  notes: string | null;
};

/** Columns of an invoice that its INSERT computes: the number (numbering.ts). */
type Computed = "counter" | "number";

/** The invoice to insert. */
export type InvoiceInsert = Omit<InvoiceRow, Computed> & {
  counter: SQL<number>;
  number: SQL<string>;
};

const bad = (param: string, message: string) => new ApiError("parameter_invalid", message, { param });

/**
 * Issuing applies every issuance rule of invoices.md; a draft (lifecycle.md) is shape-checked
 * and computed the same way, but skips the rules that only issuing checks: the complete issuer
 * profile, the Spanish address rule, the simplified limit, series binding, date order, payment
 * terms' applicability, and the number.
 */
export type BuildMode =
  | { draft: false; id?: string | undefined }
  | { draft: true; id: string; request: Record<string, unknown> };

/**
 * Applies the rules of `mode` to what the context holds and returns the invoice to insert.
 * Throws the documented 400 on the first rule broken; nothing has been written then.
 */
export function buildInvoice(
  caller: Caller,
  req: IssueRequest,
  ctx: IssueContext,
  mode: BuildMode = { draft: false },
): InvoiceInsert {
  const es = ctx.account.taxRegime === "es";
  const issuing = !mode.draft;
  const issuer = issuerOf(ctx, es && issuing);
  const corrected = correctedOf(req, ctx);
  const customer = customerOf(req, ctx, corrected);

  if (req.numbering === "customer" && !customer) {
    throw new ApiError("parameter_missing", "Customer numbering needs a customer.", { param: "customer" });
  }
  if (issuing && es && req.type !== "simplified" && customer && addressOf(customer) === null) {
    throw new ApiError(
      "customer_address_required",
      `A Spanish ${req.type} invoice needs the customer's address: add one to ${customer.id} first.`,
      { param: "customer" },
    );
  }
  const exponent = currencyExponent(req.currency);
  if (exponent === undefined)
    throw bad("currency", `Unknown currency '${req.currency}': use an ISO 4217 code.`);
  if (es && req.currency !== "EUR") throw bad("currency", "A Spanish account issues invoices in EUR only.");

  const today = accountToday(es, nowMs());
  const issueDate = req.issueDate ?? today;
  if (issueDate > today) throw bad("issue_date", `issue_date cannot be in the future (today is ${today}).`);
  // AEAT refuses a record issued before 28/10/2024 (VAL §3.1.3.1, error 1152); drafts too: a date rule.
  if (es && issueDate < "2024-10-28") {
    throw new ApiError(
      "issue_date_before_verifactu",
      "A Spanish invoice's issue_date is 2024-10-28 or later: VERI*FACTU takes no earlier one.",
      { param: "issue_date" },
    );
  }
  if (req.operationDate !== null && req.operationDate > issueDate) {
    throw bad("operation_date", "operation_date cannot be after issue_date.");
  }
  // A correction applies the rates of the operation it corrects; IVA falls due with the supply.
  const taxDates = corrected
    ? { supply: corrected.supplyTaxDate, withholding: corrected.withholdingTaxDate }
    : { supply: req.operationDate ?? issueDate, withholding: issueDate };
  const computed = computeInvoice({ regime: ctx.account.taxRegime, exponent, lines: req.lines, taxDates });
  // A corrective follows the invoice it corrects, whose recipient was checked when it was issued.
  if (es && !corrected) checkRecipient(req.type, customer, req.lines);
  // The limit is the environment's setting (RD 1619/2012 art. 4); a corrective is never simplified.
  const limit = SIMPLIFIED_LIMITS[ctx.profile?.simplifiedBasis ?? "art_4_1"];
  if (issuing && es && req.type === "simplified" && computed.total > (toMinor(limit, 2) ?? 0n)) {
    throw new ApiError(
      "simplified_limit_exceeded",
      `A simplified invoice of this account totals at most ${limit} EUR (account simplified_invoices).`,
      { param: "lines" },
    );
  }
  if (req.dueDate !== null && req.dueDate < issueDate) {
    throw bad("payment_terms.due_date", "due_date cannot be before issue_date.");
  }

  if (
    issuing &&
    ctx.seriesHead &&
    (ctx.seriesHead.type !== req.type || ctx.seriesHead.numbering !== req.numbering)
  ) {
    throw new ApiError(
      "series_mismatch",
      `Series ${req.series} holds ${ctx.seriesHead.type} invoices with ${ctx.seriesHead.numbering} numbering; use another series.`,
      { param: "series" },
    );
  }
  if (issuing && ctx.lastIssueDate && issueDate < ctx.lastIssueDate) {
    throw new ApiError(
      "issue_date_out_of_order",
      `issue_date ${issueDate} is before ${ctx.lastIssueDate}, the date of the last number of this series: numbers and dates must not go backwards.`,
      { param: "issue_date" },
    );
  }

  const byCustomer = req.numbering === "customer" && customer ? customer : null;
  // A draft holds no number: counter 0 under a counter key of its own (migration 0024).
  const id = mode.id ?? newId("invoice");
  const counterKey = mode.draft ? id : (byCustomer?.id ?? "");
  const counter = mode.draft
    ? sql<number>`0`
    : nextCounter({ accountId: caller.accountId, live: caller.live, series: req.series, counterKey });
  const amountPayable = Number(computed.amount_payable);
  return {
    id,
    accountId: caller.accountId,
    live: caller.live,
    type: req.type,
    series: req.series,
    numbering: req.numbering,
    counterKey,
    counter,
    number: mode.draft
      ? sql<string>`''`
      : invoiceNumber(req.series, byCustomer?.invoicePrefix ?? null, counter),
    // A draft without an issue date reads back null: it takes today's when finalized.
    issueDate: mode.draft ? (req.issueDate ?? "") : issueDate,
    operationDate: req.operationDate,
    supplyTaxDate: taxDates.supply,
    withholdingTaxDate: taxDates.withholding,
    currency: req.currency,
    customerId: customer?.id ?? null,
    issuer,
    customer: customer ? customerSnapshot(customer) : null,
    lines: computed.lines.map((l, i) => ({
      ...l,
      unit_code: req.lines[i]?.unit_code ?? "C62",
      amount: Number(l.amount),
    })),
    taxBreakdown: computed.tax_breakdown.map((r) => ({
      ...r,
      base: Number(r.base),
      amount: r.amount === null ? null : Number(r.amount),
    })),
    subtotal: Number(computed.subtotal),
    totalTaxAdded: Number(computed.total_tax_added),
    totalTaxWithheld: Number(computed.total_tax_withheld),
    total: Number(computed.total),
    amountPayable,
    paymentTerms: { due_date: req.dueDate, options: paymentOptions(req, ctx, computed, exponent, issuing) },
    correctsInvoiceId: corrected?.id ?? null,
    correctsReason: req.corrects?.reason ?? null,
    correctedBy: [],
    notes: req.notes,
    createdAt: nowIso(),
    // An `es` invoice's registration record is added by `withRecord` (registration.ts).
    verifactuStatus: null,
    verifactuRecords: null,
    pdfGeneratedAt: null,
    pdfSweptAt: null,
    archivedAt: null,
    status: mode.draft ? "draft" : "issued",
    paymentStatus: mode.draft ? null : amountPayable > 0 ? "unpaid" : "not_applicable",
    amountPaid: 0,
    paidOn: null,
    dueDate: req.dueDate,
    voidedAt: null,
    voidReason: null,
    overdueAt: null,
    draftRequest: mode.draft ? mode.request : null,
  };
}

/**
 * A Spanish account issues only with a complete profile (`strict`); a global one, or a draft,
 * may leave parts out.
 */
function issuerOf({ account, profile }: IssueContext, strict: boolean) {
  const taxId =
    profile?.taxIdCountry && profile.taxIdType && profile.taxIdValue
      ? { country: profile.taxIdCountry, type: profile.taxIdType, value: profile.taxIdValue }
      : null;
  const address = profile ? addressOf(profile) : null;
  if (strict) {
    const missing = !profile?.legalName ? "legal_name" : !taxId ? "tax_id" : !address ? "address" : null;
    if (missing) {
      throw new ApiError(
        "account_profile_incomplete",
        `A Spanish account needs its legal_name, tax_id and address before it issues: set account.${missing} with PATCH /v1/account.`,
        { param: `account.${missing}` },
      );
    }
    // The invoice and its VERI*FACTU record name the issuer by its Spanish NIF.
    if (!spanishNif(taxId)) {
      throw new ApiError(
        "account_profile_incomplete",
        "A Spanish account issues under its Spanish NIF: account.tax_id must be an es_nif (or an eu_vat starting ES); set it with PATCH /v1/account.",
        { param: "account.tax_id" },
      );
    }
  }
  return {
    name: profile?.legalName ?? account.name,
    tax_id: taxId,
    address,
    einvoicing: { peppol_id: profile?.einvoicingPeppolId ?? null },
  };
}

function correctedOf(req: IssueRequest, ctx: IssueContext): InvoiceRow | null {
  if (req.type !== "corrective") {
    if (req.corrects) throw bad("corrects", "corrects is only for corrective invoices (type: corrective).");
    return null;
  }
  if (!req.corrects) {
    throw new ApiError("parameter_missing", "A corrective invoice names the invoice it corrects.", {
      param: "corrects",
    });
  }
  const corrected = ctx.corrected;
  if (!corrected) throw bad("corrects.invoice", `No such invoice: '${req.corrects.invoice}'.`);
  // A draft has no number to correct, and a void invoice no longer stands (lifecycle.md).
  if (corrected.status !== "issued") {
    throw bad(
      "corrects.invoice",
      `Only an issued invoice can be corrected; '${corrected.id}' is ${corrected.status}.`,
    );
  }
  const r5 = corrected.type === "simplified";
  if ((req.corrects.reason === "R5") !== r5) {
    throw bad(
      "corrects.reason",
      r5
        ? "A simplified invoice is corrected with reason R5."
        : "R5 corrects simplified invoices only; use R1–R4.",
    );
  }
  return corrected;
}

function customerOf(req: IssueRequest, ctx: IssueContext, corrected: InvoiceRow | null): CustomerRow | null {
  if (corrected) {
    if (req.customer !== undefined && req.customer !== corrected.customerId) {
      throw bad("customer", "A corrective invoice is issued to the customer of the invoice it corrects.");
    }
    return corrected.customerId === null ? null : ctx.customer;
  }
  if (req.customer === undefined || req.customer === null) {
    if (req.type === "ordinary") {
      throw new ApiError("parameter_missing", "An ordinary invoice needs a customer.", { param: "customer" });
    }
    return null;
  }
  if (!ctx.customer) throw bad("customer", `No such customer: '${req.customer}'.`);
  return ctx.customer;
}

function customerSnapshot(c: CustomerRow) {
  return {
    id: c.id,
    name: c.name,
    tax_id: { id: c.taxIdId, country: c.taxIdCountry, type: c.taxIdType, value: c.taxIdValue },
    email: c.email,
    phone: c.phone,
    address: addressOf(c),
    einvoicing: customerEinvoicingOf(c),
  };
}

/**
 * `options` given → resolved in that order; omitted → the account defaults for an ordinary
 * invoice with a positive amount payable. Correctives and zero or negative invoices get none.
 */
function paymentOptions(
  req: IssueRequest,
  ctx: IssueContext,
  computed: ComputedInvoice,
  exponent: number,
  issuing: boolean,
) {
  const applicable = req.type !== "corrective" && computed.amount_payable > 0n;
  let chosen: PaymentInstructionRow[];
  if (req.options !== undefined) {
    if (issuing && !applicable) {
      throw new ApiError(
        "payment_terms_not_applicable",
        `Payment options apply only to invoices with a positive amount payable that are not corrective (amount payable: ${formatMinor(computed.amount_payable, exponent)}).`,
        { param: "payment_terms.options" },
      );
    }
    const byId = new Map(ctx.options.map((pi) => [pi.id, pi]));
    chosen = req.options.map((id, i) => {
      const pi = byId.get(id);
      if (!pi) throw bad(`payment_terms.options.${i}`, `No such payment instruction: '${id}'.`);
      if (req.options?.indexOf(id) !== i)
        throw bad(`payment_terms.options.${i}`, `'${id}' appears more than once.`);
      return pi;
    });
  } else {
    chosen = applicable && req.type === "ordinary" ? ctx.defaults : [];
  }
  return chosen.map((pi) => ({
    payment_instruction: pi.id,
    type: pi.type,
    bank_transfer: { beneficiary: pi.beneficiary, iban: pi.iban, bic: pi.bic },
  }));
}
