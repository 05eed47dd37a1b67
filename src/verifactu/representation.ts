import { config } from "../config";
import type { Representation } from "../contracts/verifactu-record";

/** An account environment's issuer NIF as its records name it: an `es_nif`, or an `eu_vat` of ES without the prefix. */
export function issuerNifOf(row: {
  taxIdCountry: string | null;
  taxIdType: string | null;
  taxIdValue: string | null;
}): string | null {
  if (!row.taxIdValue) return null;
  if (row.taxIdType === "es_nif") return row.taxIdValue;
  if (row.taxIdType === "eu_vat" && row.taxIdCountry === "ES") return row.taxIdValue.slice(2);
  return null;
}

/**
 * Who the request's `Cabecera` names as `Representante`: the operator (the holder of the
 * deployment's AEAT certificate) when it files for an account under an `apoderamiento` or as
 * `colaboracion_social`; null when the account files with its own certificate (its NIF is the
 * operator's), or has no representation (its records cannot be sent: `verifactuReadiness`).
 *
 * Sources: AEAT's XSD SuministroInformacion.xsd, `CabeceraType/Representante`: «Representante
 * del obligado tributario. A rellenar solo en caso de que los registros de facturación remitidos
 * hayan sido generados por un representante/asesor del obligado tributario»; here the
 * operator's system generates and sends the records of an account that is not the operator.
 * AEAT's FAQ «Colaboración social» (sede.agenciatributaria.gob.es, Preguntas frecuentes
 * VERI*FACTU, 5 Dec 2025): the records may be sent «por el propio obligado tributario o por un
 * tercero que actúe en su representación» (RGAT arts. 79-81), software companies acting as
 * such third parties under the collaboration agreement type 017: a colaborador social also
 * acts in the obligado's representation. Error 4112 (verifactu-facts.md §5): the certificate's
 * holder must be the Obligado Emisión, a Colaborador Social, an Apoderado or a Sucesor.
 * josemmo/Verifactu-PHP (src/Services/AeatClient.php `setRepresentative`) writes
 * `Representante` for the party that sends the records for the taxpayer under an apoderamiento
 * (AEAT form GENERALLEY58), and leaves it out when the taxpayer sends its own.
 *
 * @example
 * representativeOf(env, { type: "apoderamiento", granted_on: "2026-01-02", reference: "RA-1" });
 * // { name: "Operadora Ejemplo SL", nif: "B00000000" } with VERIFACTU_OPERATOR_* set
 */
export function representativeOf(
  env: Env,
  representation: Representation | null,
): { name: string; nif: string } | null {
  if (!representation || representation.type === "own_certificate") return null;
  return config(env).verifactuOperator;
}

/** Whether `nif` is the deployment operator's own: its records go with its own certificate. */
export function isOperatorNif(env: Env, nif: string | null): boolean {
  const operator = config(env).verifactuOperator;
  return operator !== null && nif === operator.nif;
}
