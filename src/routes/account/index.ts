import { retrieveAccountRoute } from "./retrieve";
import { updateAccountRoute } from "./update";

export const accountRoutes = [retrieveAccountRoute, updateAccountRoute];
