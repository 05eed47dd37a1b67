import { listEvents } from "./list";
import { retrieveEvent } from "./retrieve";

export const eventRoutes = [listEvents, retrieveEvent];
