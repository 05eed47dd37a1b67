import { retrieveBalance } from "./retrieve";

export const balanceRoutes = [retrieveBalance];
