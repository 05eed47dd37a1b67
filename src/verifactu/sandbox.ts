import { type ChainRecord, isAnulacion, type RegistroAlta } from "../contracts/verifactu-record";
import { nowMs } from "../lib/clock";
import { aeatTimestamp } from "./format";
import type { RecordOutcome, RecordRegistry } from "./registry";

/** The NIF that steers the sandbox (compliance.md): a valid NIF of nobody. */
export const SANDBOX_NIF = "99999999R";
/**
 * A customer NIF that makes the sandbox unreachable for the first two requests carrying it
 * (verifactu-system.md §3): an incident opens, then closes when it answers.
 */
export const SANDBOX_INCIDENT_NIF = "00000000T";
/** Requests carrying SANDBOX_INCIDENT_NIF that find the sandbox unreachable. */
const UNREACHABLE_ATTEMPTS = 2;

const names = (r: RegistroAlta, nif: string) => r.Destinatarios?.some((d) => "NIF" in d && d.NIF === nif);

function outcome(record: ChainRecord): RecordOutcome {
  // The sandbox accepts every cancellation (verifactu-system.md §2).
  if (isAnulacion(record)) return { status: "accepted", errors: [] };
  // Resubmitted, a record of issuer 99999999R is accepted, as if the census had been fixed.
  if (record.IDFactura.IDEmisorFactura === SANDBOX_NIF && record.Subsanacion !== "S") {
    return {
      status: "rejected",
      errors: [
        {
          code: "sandbox_issuer_rejected",
          message: `Sandbox: records of issuer ${SANDBOX_NIF} are rejected.`,
        },
      ],
    };
  }
  // Only records that carry a recipient (not F2/R5) name one to check, as at AEAT.
  if (names(record, SANDBOX_NIF)) {
    return {
      status: "accepted_with_errors",
      errors: [
        {
          code: "sandbox_recipient_not_identified",
          message: `Sandbox: the recipient ${SANDBOX_NIF} is not identified in the census.`,
        },
      ],
    };
  }
  return { status: "accepted", errors: [] };
}

const CSV_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A receipt shaped like AEAT's CSV (16 characters), marked as the sandbox's. */
function sandboxCsv(): string {
  const random = crypto.getRandomValues(new Uint8Array(9));
  return `SANDBOX${Array.from(random, (b) => CSV_ALPHABET[b % CSV_ALPHABET.length]).join("")}`;
}

/** Test mode's registry: answers at once, in the Worker, and never asks to wait. */
export const sandboxRecordRegistry: RecordRegistry = {
  name: "sandbox",
  async submit(_issuer, records, attempt = 1) {
    const steered = records.some((r) => !isAnulacion(r) && names(r, SANDBOX_INCIDENT_NIF));
    if (steered && attempt <= UNREACHABLE_ATTEMPTS)
      return { kind: "unavailable", reason: "sandbox:unreachable" };
    const outcomes = records.map(outcome);
    const registered = outcomes.some((o) => o.status !== "rejected");
    return {
      kind: "answered",
      outcomes,
      waitSeconds: 0,
      csv: registered ? sandboxCsv() : null,
      registeredAt: registered ? aeatTimestamp(nowMs()) : null,
    };
  },
};
