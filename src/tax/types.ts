/**
 * Types of the public tax-regime catalog (seed API, "Tax Regime"). The field names and
 * their order are exactly the API's, so catalog objects can be serialized as they are.
 */

import type { TaxEffect, TaxRegimeId, TaxTreatment } from "../constants";

export type { TaxEffect, TaxRegimeId, TaxTreatment };

/** A calendar date, `YYYY-MM-DD`. ISO dates sort as strings, so they are compared as strings. */
export type IsoDate = string;

/** A percentage with its sign, e.g. `"21%"`, `"7.5%"`, `"0.625%"`. */
export type Percent = `${number}%`;

/** One effective-dated version of a rule. Versions of one rule share `rule` and never overlap. */
export interface RuleVersion {
  /** Stable rule id, supplied as `taxes[].rule` at issuance. */
  readonly rule: string;
  /** Short English text usable on an invoice line. */
  readonly description: string;
  readonly treatment: TaxTreatment;
  /** Set exactly when `treatment` is `taxable`. */
  readonly rate: Percent | null;
  /** Tax-authority code (VERI*FACTU CalificacionOperacion / OperacionExenta) when one applies. */
  readonly authority_code: string | null;
  readonly legal_reference: string | null;
  /** First day the version applies. */
  readonly effective_from: IsoDate;
  /** Last day the version applies (inclusive); null when open-ended. */
  readonly effective_until: IsoDate | null;
}

export interface Tax {
  /** Stable tax id, supplied as `taxes[].tax` at issuance. */
  readonly tax: string;
  readonly name: string;
  readonly effect: TaxEffect;
  /** Every version of every rule; a rule's versions are adjacent and listed oldest first. */
  readonly rules: readonly RuleVersion[];
}

export interface TaxRegime {
  readonly id: TaxRegimeId;
  readonly object: "tax_regime";
  /** Empty when the regime takes custom taxes at issuance (`global`). */
  readonly taxes: readonly Tax[];
}
