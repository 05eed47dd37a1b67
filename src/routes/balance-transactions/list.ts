import { and, eq } from "drizzle-orm";
import { balanceTransactions } from "../../db/schema";
import { listOf } from "../../lib/api-schemas";
import { listBody, paginate } from "../../lib/pagination";
import { route } from "../../lib/route";
import { ownedBy } from "../../lib/scope";
import { balanceTransactionObject, listBalanceTransactionsQuery } from "./schemas";
import { serializeBalanceTransaction } from "./serialize";

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
