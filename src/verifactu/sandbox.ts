import type { RegistroAlta } from "../contracts/verifactu-record";
import type { RecordOutcome, RecordRegistry } from "./registry";

/** The NIF that steers the sandbox (compliance.md): a valid NIF of nobody. */
export const SANDBOX_NIF = "99999999R";

function outcome(record: RegistroAlta): RecordOutcome {
  if (record.IDFactura.IDEmisorFactura === SANDBOX_NIF) {
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
  if (record.Destinatarios?.some((d) => "NIF" in d && d.NIF === SANDBOX_NIF)) {
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

/** Test mode's registry: answers at once, in the Worker, and never asks to wait. */
export const sandboxRecordRegistry: RecordRegistry = {
  name: "sandbox",
  async submit(_issuer, records) {
    return { kind: "answered", outcomes: records.map(outcome), waitSeconds: 0 };
  },
};
