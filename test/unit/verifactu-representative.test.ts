/**
 * verifactu-system.md §4: the Cabecera names the operator as `Representante` when it files for
 * an account under an apoderamiento or as colaborador social; never for the operator's own
 * account, nor without a representation (src/verifactu/representation.ts cites AEAT).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { representativeOf } from "../../src/verifactu/representation";

const operator = {
  ...env,
  VERIFACTU_OPERATOR_NIF: "A00000000",
  VERIFACTU_OPERATOR_NAME: "Operadora SL",
} as Env;
const granted = { granted_on: "2026-01-02", reference: "RA-1" };

describe("the request's Representante is the operator filing for another taxpayer", () => {
  it.each(["apoderamiento", "colaboracion_social"] as const)("%s: the operator's name and NIF", (type) => {
    expect(representativeOf(operator, { type, ...granted })).toEqual({
      name: "Operadora SL",
      nif: "A00000000",
    });
  });

  it("own_certificate, or no representation: none", () => {
    expect(representativeOf(operator, { type: "own_certificate", ...granted })).toBeNull();
    expect(representativeOf(operator, null)).toBeNull();
  });

  it("no operator configured: none to name (readiness refuses Live issuance then)", () => {
    expect(representativeOf(env, { type: "apoderamiento", ...granted })).toBeNull();
  });
});
