/**
 * Live `es` issuance needs a deployment that can send the records (verifactu-system.md §4,
 * src/verifactu/readiness.ts): the suite's Worker has no AEAT certificate, so the tests that
 * issue Live `es` invoices do it through these bindings, and give the Live environment its own
 * NIF (one Live account per NIF, §6) and a representation.
 */
import { env } from "cloudflare:workers";
import { isValidSpanishNif } from "../../src/tax-ids/es-nif";
import { type ApiClient, client, expectStatus } from "./api";
import type { TestAccount } from "./factories";
import { esProfile } from "./invoices";

/** An AEAT_CERT binding that must never be reached: the API only queues records. */
export const unreachableCertificate = {
  fetch: async () => {
    throw new Error("AEAT is not reachable from this test");
  },
};

/** The holder of the certificate (src/config.ts): an entity NIF no test account uses. */
export const OPERATOR = {
  VERIFACTU_OPERATOR_NIF: "A00000000",
  VERIFACTU_OPERATOR_NAME: "Operadora Ejemplo SL",
};

/**
 * The API Worker of a deployment ready to send Live records: the certificate binding, and
 * the operator (the suite's [vars] have the software identity: vitest.config.ts).
 */
export const liveReadyBindings = {
  ...env,
  AEAT_CERT: unreachableCertificate,
  ...OPERATOR,
} as unknown as Env;

export const apoderamiento = { type: "apoderamiento", granted_on: "2026-01-02", reference: "RA-2026-0001" };

/**
 * A well-formed entity NIF (B, 7 digits, control digit) that no other test uses: the Live
 * environments of a deployment never share one.
 *
 * @example
 * uniqueNif(); // "B40123453"
 */
export function uniqueNif(): string {
  for (;;) {
    const digits = String((crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % 10_000_000).padStart(7, "0");
    let sum = 0;
    [...digits].forEach((d, i) => {
      const n = Number(d);
      // Positions 1, 3, 5, 7 are doubled and their digits added; 2, 4, 6 added as they are.
      sum += i % 2 === 0 ? Math.floor((2 * n) / 10) + ((2 * n) % 10) : n;
    });
    const nif = `B${digits}${(10 - (sum % 10)) % 10}`;
    if (isValidSpanishNif(nif)) return nif;
  }
}

/**
 * Makes `account`'s Live environment ready to issue: its issuer profile (`profile`, under a
 * NIF of its own) and an apoderamiento. Returns a Live client through `liveReadyBindings`.
 */
export async function readyLive(
  account: TestAccount,
  profile: Record<string, unknown> = esProfile,
): Promise<ApiClient> {
  const tax_id = { ...(profile.tax_id as object), value: uniqueNif() };
  const res = await client(account.liveKey).patch("/v1/account", {
    ...profile,
    tax_id,
    verifactu: { representation: apoderamiento },
  });
  expectStatus(res, 200);
  return client(account.liveKey, liveReadyBindings);
}
