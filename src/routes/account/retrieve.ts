import { loadAccount } from "../../account/load";
import { accountObject } from "../../account/schemas";
import { serializeAccount } from "../../account/serialize";
import { route } from "../../http/route";

export const retrieveAccountRoute = route({
  method: "get",
  path: "/v1/account",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Account",
    summary: "Retrieve the account",
    responses: {
      200: { description: "The account, as seen from the key's environment.", schema: accountObject },
    },
  }),
  handler: async (c) =>
    c.json(serializeAccount(await loadAccount(c.get("db"), c.get("caller")), c.get("caller").live)),
});
