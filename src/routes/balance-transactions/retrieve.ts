import { findBalanceTransaction } from "../../balance/find";
import { balanceTransactionObject } from "../../balance/schemas";
import { serializeBalanceTransaction } from "../../balance/serialize";
import { idParams, route } from "../../http/route";

export const retrieveBalanceTransactionRoute = route({
  method: "get",
  path: "/v1/balance-transactions/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Balance",
    summary: "Retrieve a balance transaction",
    responses: { 200: { description: "The balance transaction.", schema: balanceTransactionObject } },
  }),
  request: { params: idParams },
  handler: async (c, { params }) =>
    c.json(
      serializeBalanceTransaction(await findBalanceTransaction(c.get("db"), c.get("caller"), params.id)),
    ),
});
