import { listBalanceTransactions } from "./list";
import { retrieveBalanceTransaction } from "./retrieve";

export const balanceTransactionRoutes = [listBalanceTransactions, retrieveBalanceTransaction];
