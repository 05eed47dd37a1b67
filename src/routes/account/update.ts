import { accountObject, updateAccountBody } from "../../account/schemas";
import { serializeAccount } from "../../account/serialize";
import { updateAccount as update } from "../../account/update";
import { writerOf } from "../../events/writer";
import { route } from "../../http/route";

/** Omitted fields stay; the profile is per environment (src/account/update.ts). */
export const updateAccountRoute = route({
  method: "patch",
  path: "/v1/account",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Account",
    summary: "Update the account",
    responses: { 200: { description: "The updated account.", schema: accountObject } },
    errors: ["issuer_tax_id_in_use"],
  }),
  request: { json: updateAccountBody },
  handler: async (c, { json: body }) => {
    const caller = c.get("caller");
    return c.json(serializeAccount(await update(writerOf(c), caller, body), caller.live));
  },
});
