import { retrieveTaxIdRoute } from "./retrieve";

export const taxIdRoutes = [retrieveTaxIdRoute];
