import { and, eq } from "drizzle-orm";
import { balanceTransactions } from "../../db/schema";
import { listOf } from "../../http/schemas";
import { listBody, paginate } from "../../http/pagination";
import { route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { balanceTransactionObject, listBalanceTransactionsQuery } from "../../balance/schemas";
import { serializeBalanceTransaction } from "../../balance/serialize";

export const listBalanceTransactions = route({
  method: "get",
  path: "/v1/balance-transactions",
  tag: "Balance",
  summary: "List balance transactions (optionally of one type)",
  request: { query: listBalanceTransactionsQuery },
  responses: {
    200: { description: "Balance transactions, newest first.", schema: listOf(balanceTransactionObject) },
  },
  handler: async (c, { query }) => {
    const t = balanceTransactions;
    const where = and(
      ownedBy(t, c.get("caller")),
      query.type === undefined ? undefined : eq(t.type, query.type),
    );
    const page = await paginate(c.get("db"), t, "balanceTransaction", where, query);
    return c.json(listBody("/v1/balance-transactions", page, serializeBalanceTransaction));
  },
});
