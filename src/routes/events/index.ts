import { listEventsRoute } from "./list";
import { retrieveEventRoute } from "./retrieve";

export const eventRoutes = [listEventsRoute, retrieveEventRoute];
