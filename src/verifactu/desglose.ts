import type { CalificacionOperacion, DetalleDesglose, OperacionExenta } from "../contracts/verifactu-record";
import type { Invoice } from "../invoices/schemas";
import { parseDecimal, parsePercent, percentOfMinor } from "../lib/money";
import { aeatCents, aeatRate, UnregistrableInvoice } from "./format";

type Row = Invoice["tax_breakdown"][number];

/** The XSD's limit on `DetalleDesglose` entries per record. */
export const MAX_DETAILS = 12;

const CALIFICACION = new Set<string>(["S1", "S2", "N1", "N2"]);
const EXENTA = new Set<string>(["E1", "E2", "E3", "E4", "E5", "E6"]);

const minor = (amount: string): bigint => {
  const d = parseDecimal(amount);
  if (d?.scale !== 2) throw new RangeError(`not an amount with two decimals: ${amount}`);
  return d.units;
};

function qualification(
  row: Row,
): Pick<DetalleDesglose, "ClaveRegimen"> &
  ({ CalificacionOperacion: CalificacionOperacion } | { OperacionExenta: OperacionExenta }) {
  const code = row.authority_code ?? "";
  if (CALIFICACION.has(code)) {
    return { ClaveRegimen: "01", CalificacionOperacion: code as CalificacionOperacion };
  }
  // Exports (E2) and operations assimilated to them (E3) go under regime 02, not 01.
  if (EXENTA.has(code)) {
    return {
      ClaveRegimen: code === "E2" || code === "E3" ? "02" : "01",
      OperacionExenta: code as OperacionExenta,
    };
  }
  throw new RangeError(`IVA rule ${row.rule} has no VERI*FACTU code`);
}

/** Rate and quota of an IVA row: S1 carries both, S2 zero for both (the recipient pays), others none. */
function quota(row: Row, base: bigint, amount: bigint | null) {
  const head = qualification(row);
  const detail = { Impuesto: "01", ...head } as const;
  if ("CalificacionOperacion" in head && head.CalificacionOperacion === "S1" && row.rate !== null) {
    return {
      ...detail,
      TipoImpositivo: aeatRate(row.rate),
      BaseImponibleOimporteNoSujeto: aeatCents(base),
      CuotaRepercutida: aeatCents(amount ?? 0n),
    };
  }
  if ("CalificacionOperacion" in head && head.CalificacionOperacion === "S2") {
    return {
      ...detail,
      TipoImpositivo: "0.00",
      BaseImponibleOimporteNoSujeto: aeatCents(base),
      CuotaRepercutida: "0.00",
    };
  }
  return { ...detail, BaseImponibleOimporteNoSujeto: aeatCents(base) };
}

/**
 * The record's `Desglose` and `CuotaTotal` from an invoice's tax breakdown: one detail per IVA
 * row, with the recargo de equivalencia row of the same rule merged into it. When
 * only some of the IVA row's lines carry recargo, the row is split in two details (with and
 * without recargo) whose bases and quotas add up to the row's, so totals stay exact. IRPF is
 * withheld, not a quota of the record, and is left out.
 */
export function desglose(rows: readonly Row[]): { details: DetalleDesglose[]; cuotaTotal: bigint } {
  if (rows.some((r) => r.tax === null)) throw new RangeError("custom taxes have no VERI*FACTU breakdown");
  const surcharges = rows.filter((r) => r.tax === "recargo_equivalencia");
  const details: DetalleDesglose[] = [];
  let cuotaTotal = 0n;

  for (const iva of rows.filter((r) => r.tax === "iva")) {
    const base = minor(iva.base);
    const amount = iva.amount === null ? null : minor(iva.amount);
    cuotaTotal += amount ?? 0n;
    const re = surcharges.find((r) => r.rule === iva.rule);
    if (!re || re.rate === null || re.amount === null || iva.rate === null) {
      details.push(quota(iva, base, amount) as DetalleDesglose);
      continue;
    }
    const reBase = minor(re.base);
    const reAmount = minor(re.amount);
    cuotaTotal += reAmount;
    const reQuota = reBase === base ? (amount ?? 0n) : percentOfMinor(reBase, parsePercent(iva.rate)!);
    // The issuer stays in its own regime (01): ClaveRegimen 18 (L8A) is the recargo regime of
    // the retailer it sells to, whose own invoices these are not. AEAT's validations dropped the
    // "recargo only under 18" rule (errors 1279/1280) in v1.0.7, 26/05/2025 (VAL §15.3).
    details.push({
      ...quota(iva, reBase, reQuota),
      TipoRecargoEquivalencia: aeatRate(re.rate),
      CuotaRecargoEquivalencia: aeatCents(reAmount),
    } as DetalleDesglose);
    if (reBase !== base) details.push(quota(iva, base - reBase, (amount ?? 0n) - reQuota) as DetalleDesglose);
  }

  const orphan = surcharges.find((re) => !rows.some((r) => r.tax === "iva" && r.rule === re.rule));
  if (orphan) throw new RangeError(`recargo rule ${orphan.rule} has no IVA row`);
  if (details.length === 0) throw new RangeError("a record needs at least one IVA detail");
  if (details.length > MAX_DETAILS)
    throw new UnregistrableInvoice(
      `VERI*FACTU holds at most ${MAX_DETAILS} tax breakdown details (distinct rates and qualifications) per invoice`,
      "lines",
    );
  return { details, cuotaTotal };
}
