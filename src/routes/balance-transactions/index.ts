import { listBalanceTransactionsRoute } from "./list";
import { retrieveBalanceTransactionRoute } from "./retrieve";

export const balanceTransactionRoutes = [listBalanceTransactionsRoute, retrieveBalanceTransactionRoute];
