import { listAttempts } from "./attempts";
import { createDestination } from "./create";
import { deleteDestination } from "./delete";
import { disableDestination } from "./disable";
import { enableDestination } from "./enable";
import { listDestinations } from "./list";
import { pingDestination } from "./ping";
import { resendEvent } from "./resend";
import { retrieveDestination } from "./retrieve";
import { rotateSecret } from "./rotate-secret";
import { updateDestination } from "./update";

export const eventDestinationRoutes = [
  createDestination,
  listDestinations,
  retrieveDestination,
  updateDestination,
  deleteDestination,
  enableDestination,
  disableDestination,
  listAttempts,
  pingDestination,
  resendEvent,
  rotateSecret,
];
