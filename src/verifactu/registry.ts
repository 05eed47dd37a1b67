import type { RegistrationError, RegistroAlta } from "../contracts/verifactu-record";

/** AEAT takes at most 1,000 records per request. */
export const MAX_RECORDS_PER_REQUEST = 1000;

export type RegistrationStatus = "accepted" | "accepted_with_errors" | "rejected";
export type RecordOutcome = { status: RegistrationStatus; errors: RegistrationError[] };

/** Who the records of one request belong to (the request's `Cabecera.ObligadoEmision`). */
export type Issuer = { name: string; nif: string };

/**
 * A registry's answer to one request. `answered`: one outcome per record, in the order sent,
 * and the wait AEAT's flow control asks before the next request (`TiempoEsperaEnvio`).
 * `unavailable`: nothing was judged (network, timeout, a SOAP fault, an answer we cannot
 * read); the records stay pending and are sent again later.
 */
export type SubmissionAnswer =
  | { kind: "answered"; outcomes: RecordOutcome[]; waitSeconds: number }
  | { kind: "unavailable"; reason: string };

/** Where registration records go: the Test-mode sandbox, or AEAT's VERI*FACTU service in Live. */
export interface RecordRegistry {
  readonly name: "sandbox" | "aeat";
  /** Records of one issuer, at most MAX_RECORDS_PER_REQUEST, in chain order. */
  submit(issuer: Issuer, records: readonly RegistroAlta[]): Promise<SubmissionAnswer>;
}
