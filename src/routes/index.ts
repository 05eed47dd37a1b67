import { accountRoutes } from "./account";
import { balanceRoutes } from "./balance";
import { balanceTransactionRoutes } from "./balance-transactions";
import { customerRoutes } from "./customers";
import { eventDestinationRoutes } from "./event-destinations";
import { eventRoutes } from "./events";
import { healthRoute } from "./health";
import { invoiceRoutes } from "./invoices";
import { paymentInstructionRoutes } from "./payment-instructions";
import { paymentRoutes } from "./payments";
import { taxIdRoutes } from "./tax-ids";
import { taxRegimeRoutes } from "./tax-regimes";
import { verifactuRoutes } from "./verifactu";

/** Every operation of the API: what the app mounts and what the OpenAPI document describes. */
export const ROUTES = [
  healthRoute,
  ...taxRegimeRoutes,
  ...verifactuRoutes,
  ...customerRoutes,
  ...paymentInstructionRoutes,
  ...accountRoutes,
  ...eventRoutes,
  ...eventDestinationRoutes,
  ...invoiceRoutes,
  ...paymentRoutes,
  ...taxIdRoutes,
  ...balanceRoutes,
  ...balanceTransactionRoutes,
];
