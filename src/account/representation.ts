import type { Representation } from "../contracts/verifactu-record";
import type { AccountRow } from "../db/schema";
import { ApiError } from "../http/errors";
import { nowMs } from "../lib/clock";
import { accountToday } from "../lib/dates";
import { isOperatorNif } from "../verifactu/representation";
import type { UpdateAccountBody } from "./schemas";

const PARAM = "verifactu.representation";

/**
 * The environment's `verifactu_representation` a PATCH sets (verifactu-system.md §4): only an
 * `es` account files VERI*FACTU records; a grant is dated, never in the future (Madrid's today);
 * `own_certificate` only for the operator's own NIF (`nif`: the issuer NIF this PATCH leaves).
 */
export function representationColumns(
  env: Env,
  account: AccountRow,
  verifactu: NonNullable<UpdateAccountBody["verifactu"]>,
  nif: string | null,
): { verifactuRepresentation: Representation | null } {
  if (account.taxRegime !== "es") {
    throw new ApiError(
      "parameter_invalid",
      "Only es accounts file VERI*FACTU records: verifactu applies to accounts of the es tax regime.",
      { param: "verifactu" },
    );
  }
  const r = verifactu.representation;
  if (!r) return { verifactuRepresentation: null };
  const today = accountToday(true, nowMs());
  if (r.granted_on > today) {
    throw new ApiError("parameter_invalid", `granted_on must not be in the future (today is ${today}).`, {
      param: `${PARAM}.granted_on`,
    });
  }
  if (r.type === "own_certificate" && !isOperatorNif(env, nif)) {
    throw new ApiError(
      "parameter_invalid",
      "own_certificate means the account's NIF is the operator's, whose certificate this deployment holds; " +
        "this account's NIF is not: use apoderamiento or colaboracion_social.",
      { param: `${PARAM}.type` },
    );
  }
  return { verifactuRepresentation: { type: r.type, granted_on: r.granted_on, reference: r.reference } };
}
