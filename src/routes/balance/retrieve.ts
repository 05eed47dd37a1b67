import { BALANCE_CURRENCY, BALANCE_EXPONENT, balanceQuery } from "../../balance/ledger";
import { counted } from "../../db/client";
import { formatMinor } from "../../lib/money";
import { route } from "../../http/route";
import { balanceObject } from "../../balance/balance-object";

export const retrieveBalance = route({
  method: "get",
  path: "/v1/balance",
  tag: "Balance",
  summary: "Retrieve the usage balance of the key's environment",
  responses: { 200: { description: "The balance.", schema: balanceObject } },
  handler: async (c) => {
    const db = c.get("db");
    const caller = c.get("caller");
    const [row] = await counted(db, balanceQuery(db, caller));
    return c.json({
      object: "balance" as const,
      live: caller.live,
      currency: BALANCE_CURRENCY,
      available: formatMinor(BigInt(row?.available ?? 0), BALANCE_EXPONENT),
    });
  },
});
