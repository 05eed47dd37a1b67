import { type SQL, sql } from "drizzle-orm";
import * as z from "zod";
import { PEPPOL_EAS_CODES } from "../constants/peppol-eas";
import type { StoredDir3 } from "../db/schema";

/**
 * Electronic invoicing addresses (docs/customers.md "E-invoicing"): a Peppol id on customers
 * and on the issuer profile, DIR3 codes on public-sector customers; as request schemas, as
 * the API objects, and as what invoices snapshot.
 */

/**
 * `<scheme>:<id>`: a Peppol EAS scheme, and an id of 1 to 130 US-ASCII characters without
 * spaces (Peppol Policy for use of Identifiers 4.4: 4 + ":" + 130; phax/peppol-commons
 * `PeppolIdentifierHelper.MAX_PARTICIPANT_VALUE_LENGTH`).
 */
export function isPeppolId(s: string): boolean {
  return /^\d{4}:[\x21-\x7e]{1,130}$/.test(s) && PEPPOL_EAS_CODES.has(s.slice(0, 4));
}

const peppolId = /* @__PURE__ */ z
  .string()
  .refine(isPeppolId, 'must be "<scheme>:<id>": a Peppol EAS scheme and an id without spaces')
  .meta(
    globalThis.OMIT_API_DOCS
      ? {}
      : {
          description:
            "The Peppol participant id, `<scheme>:<id>`: a scheme of the Peppol EAS code list (`9920` Spanish VAT, `0088` GLN…) and an id of 1–130 ASCII characters without spaces. null clears it.",
          examples: ["9920:ESB12345674"],
        },
  );

const dir3Code = /* @__PURE__ */ z
  .string()
  .regex(/^[A-Z0-9]{9}$/, "must be a DIR3 code: 9 characters A-Z and 0-9")
  .meta(globalThis.OMIT_API_DOCS ? {} : { examples: ["L01280796"] });

/** The three units together (and the proposing body optionally): a missing one is a 400 on `dir3`. */
const dir3Input = /* @__PURE__ */ z
  .object({
    accounting_office: dir3Code.optional(),
    managing_body: dir3Code.optional(),
    processing_unit: dir3Code.optional(),
    proposing_body: dir3Code.nullable().optional(),
  })
  .strict()
  .refine(
    (d) => d.accounting_office && d.managing_body && d.processing_unit,
    "must have accounting_office, managing_body and processing_unit together",
  )
  .meta(
    globalThis.OMIT_API_DOCS
      ? {}
      : {
          description:
            "Public-sector customers (FACe): the DIR3 codes of the oficina contable, órgano gestor and unidad tramitadora, all three, and optionally the órgano proponente; 9 characters A–Z and 0–9 each. null clears them.",
        },
  );

/** A customer's, on create and update: an omitted field stays (on create: none); null clears. */
export const customerEinvoicingInput = /* @__PURE__ */ z
  .object({ peppol_id: peppolId.nullable().optional(), dir3: dir3Input.nullable().optional() })
  .strict()
  .nullable()
  .optional();

/** The issuer profile's (`PATCH /v1/account`). */
export const issuerEinvoicingInput = /* @__PURE__ */ z
  .object({ peppol_id: peppolId.nullable().optional() })
  .strict()
  .nullable()
  .optional();

export type CustomerEinvoicingInput = z.output<typeof customerEinvoicingInput>;

export type EinvoicingColumns = { einvoicingPeppolId: string | null; einvoicingDir3: StoredDir3 | null };

/** The columns a customer's `einvoicing` input names (an omitted field is left out: it stays). */
export function einvoicingColumns(input: CustomerEinvoicingInput): Partial<EinvoicingColumns> {
  if (input === undefined) return {};
  if (input === null) return { einvoicingPeppolId: null, einvoicingDir3: null };
  const out: Partial<EinvoicingColumns> = {};
  if (input.peppol_id !== undefined) out.einvoicingPeppolId = input.peppol_id;
  const d = input.dir3;
  if (d !== undefined) {
    out.einvoicingDir3 = d && {
      accounting_office: d.accounting_office as string,
      managing_body: d.managing_body as string,
      processing_unit: d.processing_unit as string,
      proposing_body: d.proposing_body ?? null,
    };
  }
  return out;
}

/** A customer's `einvoicing` object (also its invoice snapshot's). */
export function customerEinvoicingOf(row: EinvoicingColumns) {
  return { peppol_id: row.einvoicingPeppolId, dir3: row.einvoicingDir3 };
}

/** `customerEinvoicingOf` in SQL over the row a write finds, per field (an event's `fill`). */
export function einvoicingFill(c: {
  einvoicingPeppolId: unknown;
  einvoicingDir3: unknown;
}): Record<string, SQL> {
  return {
    "$.einvoicing.peppol_id": sql`${c.einvoicingPeppolId}`,
    "$.einvoicing.dir3": sql`json(${c.einvoicingDir3})`,
  };
}

const dir3Object = /* @__PURE__ */ z
  .object({
    accounting_office: z.string(),
    managing_body: z.string(),
    processing_unit: z.string(),
    proposing_body: z.string().nullable(),
  })
  .strict();

export const customerEinvoicingObject = /* @__PURE__ */ z
  .object({ peppol_id: z.string().nullable(), dir3: dir3Object.nullable() })
  .strict();

export const issuerEinvoicingObject = /* @__PURE__ */ z.object({ peppol_id: z.string().nullable() }).strict();
