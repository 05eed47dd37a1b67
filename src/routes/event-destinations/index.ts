import { listAttemptsRoute } from "./attempts";
import { createDestinationRoute } from "./create";
import { deleteDestinationRoute } from "./delete";
import { disableDestinationRoute } from "./disable";
import { enableDestinationRoute } from "./enable";
import { listDestinationsRoute } from "./list";
import { pingDestinationRoute } from "./ping";
import { resendEventRoute } from "./resend";
import { retrieveDestinationRoute } from "./retrieve";
import { rotateSecretRoute } from "./rotate-secret";
import { updateDestinationRoute } from "./update";

export const eventDestinationRoutes = [
  createDestinationRoute,
  listDestinationsRoute,
  retrieveDestinationRoute,
  updateDestinationRoute,
  deleteDestinationRoute,
  enableDestinationRoute,
  disableDestinationRoute,
  listAttemptsRoute,
  pingDestinationRoute,
  resendEventRoute,
  rotateSecretRoute,
];
