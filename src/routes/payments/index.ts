import { createPaymentRoute } from "./create";
import { deletePaymentRoute } from "./delete";
import { listPaymentsRoute } from "./list";
import { retrievePaymentRoute } from "./retrieve";

export const paymentRoutes = [
  createPaymentRoute,
  listPaymentsRoute,
  retrievePaymentRoute,
  deletePaymentRoute,
];
