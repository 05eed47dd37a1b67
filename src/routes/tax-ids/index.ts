import { retrieveTaxId } from "./retrieve";

export const taxIdRoutes = [retrieveTaxId];
