import type { ChainRecord, RegistrationError } from "../contracts/verifactu-record";

/** AEAT takes at most 1,000 records per request. */
export const MAX_RECORDS_PER_REQUEST = 1000;

export type RegistrationStatus = "accepted" | "accepted_with_errors" | "rejected";
export type RecordOutcome = { status: RegistrationStatus; errors: RegistrationError[] };

/**
 * The request's `Cabecera`: who the records belong to (`ObligadoEmision`), who files them for it
 * when that must be said (`Representante`), and whether they were generated during an
 * incident (`RemisionVoluntaria/Incidencia` S, Orden HAC/1177/2024 art. 16.4).
 */
export type Issuer = {
  name: string;
  nif: string;
  representative?: { name: string; nif: string } | null;
  incident?: boolean;
};

/**
 * A registry's answer to one request. `answered`: one outcome per record, in the order sent,
 * the wait AEAT's flow control asks before the next request (`TiempoEsperaEnvio`), and the
 * request's receipt (`CSV`, and `DatosPresentacion/TimestampPresentacion` as `registeredAt`),
 * which AEAT gives once and never again. `unavailable`: nothing was judged (network, timeout, a
 * SOAP fault, an answer we cannot read); the records stay pending and are sent again later.
 */
export type SubmissionAnswer =
  | {
      kind: "answered";
      outcomes: RecordOutcome[];
      waitSeconds: number;
      csv?: string | null;
      registeredAt?: string | null;
    }
  | { kind: "unavailable"; reason: string };

/** Where records go: the Test-mode sandbox, or AEAT's VERI*FACTU service in Live. */
export interface RecordRegistry {
  readonly name: "sandbox" | "aeat";
  /**
   * Records of one issuer, at most MAX_RECORDS_PER_REQUEST, in chain order. `attempt`: how many
   * requests have carried the most tried of them, this one included (1 when not said).
   */
  submit(issuer: Issuer, records: readonly ChainRecord[], attempt?: number): Promise<SubmissionAnswer>;
}
