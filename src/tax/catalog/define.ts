import type { IsoDate, Percent, RuleVersion, TaxTreatment } from "../types";

/** What every version of a rule shares. */
export interface RuleHead {
  rule: string;
  description: string;
  treatment: TaxTreatment;
  authority_code: string | null;
}

/** One period of a rule: its rate, first and last day (inclusive; null = open-ended) and legal basis. */
export interface Period {
  rate: Percent | null;
  from: IsoDate;
  until: IsoDate | null;
  ref: string;
}

/**
 * Expands a rule and its periods (oldest first) into API rule versions, with the fields in the
 * seed's order. The catalog tests check ordering, overlaps and field consistency.
 */
export function versions(head: RuleHead, periods: readonly Period[]): RuleVersion[] {
  return periods.map((p) => ({
    rule: head.rule,
    description: head.description,
    treatment: head.treatment,
    rate: p.rate,
    authority_code: head.authority_code,
    legal_reference: p.ref,
    effective_from: p.from,
    effective_until: p.until,
  }));
}

/** Ley 37/1992 (IVA) has applied since 1993-01-01, the start of the documented IVA rate history. */
export const LIVA_START: IsoDate = "1993-01-01";
