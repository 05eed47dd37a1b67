import { readBalance } from "../../balance/ledger";
import { balanceObject } from "../../balance/schemas";
import { route } from "../../http/route";

export const retrieveBalanceRoute = route({
  method: "get",
  path: "/v1/balance",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Balance",
    summary: "Retrieve the usage balance of the key's environment",
    responses: { 200: { description: "The balance.", schema: balanceObject } },
  }),
  handler: async (c) => c.json(await readBalance(c.get("db"), c.get("caller"))),
});
