import { retrieveBalanceRoute } from "./retrieve";

export const balanceRoutes = [retrieveBalanceRoute];
