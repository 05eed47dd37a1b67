import { createDestination } from "./create";
import { deleteDestination } from "./delete";
import { disableDestination } from "./disable";
import { enableDestination } from "./enable";
import { listDestinations } from "./list";
import { retrieveDestination } from "./retrieve";
import { updateDestination } from "./update";

export const eventDestinationRoutes = [
  createDestination,
  listDestinations,
  retrieveDestination,
  updateDestination,
  deleteDestination,
  enableDestination,
  disableDestination,
];
