import { config } from "../config";
import type { AccountEnvironmentRow } from "../db/schema";
import { ApiError } from "../http/errors";
import type { VerifactuBindings } from "./index";
import { isOperatorNif, issuerNifOf } from "./representation";
import { softwareFor } from "./software";

/**
 * What the deployment lacks to send an environment's VERI*FACTU records (verifactu-system.md
 * §4), each as a sentence part; empty when it can. Test mode always can (the sandbox). Live
 * needs the AEAT certificate binding, the software identity, and, for an account whose NIF is
 * not the operator's, a representation and the operator's identity (its `Representante`).
 *
 * @example
 * verifactuReadiness(env, profile, false); // []
 */
export function verifactuReadiness(
  env: Env & VerifactuBindings,
  profile: AccountEnvironmentRow | null,
  live: boolean,
): string[] {
  if (!live) return [];
  const missing: string[] = [];
  if (!env.AEAT_CERT) missing.push("the deployment's AEAT certificate (the AEAT_CERT binding)");
  if (softwareFor(env, true) === null) missing.push("the software identity (its configuration is unset)");
  if (!profile || isOperatorNif(env, issuerNifOf(profile))) return missing;
  const representation = profile.verifactuRepresentation;
  if (!representation || representation.type === "own_certificate") {
    missing.push(
      "the account's representation: how the operator may file for its NIF (set verifactu.representation with PATCH /v1/account)",
    );
  } else if (!config(env).verifactuOperator) {
    missing.push(
      "the operator's identity (VERIFACTU_OPERATOR_NIF and VERIFACTU_OPERATOR_NAME), which the records name as Representante",
    );
  }
  return missing;
}

/**
 * Refuses an issuance whose record could not be sent: a Live invoice never prints the
 * VERI*FACTU QR while its record cannot reach AEAT. Called after the request's 400s; throws
 * before anything is written.
 */
export function refuseUnready(
  env: Env & VerifactuBindings,
  profile: AccountEnvironmentRow | null,
  live: boolean,
): void {
  const missing = verifactuReadiness(env, profile, live);
  if (missing.length === 0) return;
  throw new ApiError(
    "verifactu_not_ready",
    `This deployment cannot send this account's Live VERI*FACTU records yet; missing: ${missing.join("; ")}. Nothing was issued.`,
  );
}
