import { retrieveAccount } from "./retrieve";
import { updateAccount } from "./update";

export const accountRoutes = [retrieveAccount, updateAccount];
