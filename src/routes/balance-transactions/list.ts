import { listBalanceTransactions } from "../../balance/list";
import { balanceTransactionObject, listBalanceTransactionsQuery } from "../../balance/schemas";
import { serializeBalanceTransaction } from "../../balance/serialize";
import { listBody } from "../../http/pagination";
import { route } from "../../http/route";
import { listOf } from "../../http/schemas";

export const listBalanceTransactionsRoute = route({
  method: "get",
  path: "/v1/balance-transactions",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Balance",
    summary: "List balance transactions (optionally of one type)",
    responses: {
      200: { description: "Balance transactions, newest first.", schema: listOf(balanceTransactionObject) },
    },
  }),
  request: { query: listBalanceTransactionsQuery },
  handler: async (c, { query }) => {
    const page = await listBalanceTransactions(c.get("db"), c.get("caller"), query);
    return c.json(listBody("/v1/balance-transactions", page, serializeBalanceTransaction));
  },
});
