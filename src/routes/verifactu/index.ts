import { retrieveDeclarationRoute } from "./declaration";
import { retrieveVerifactuStatusRoute } from "./status";

export const verifactuRoutes = [retrieveDeclarationRoute, retrieveVerifactuStatusRoute];
