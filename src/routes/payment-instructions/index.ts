import { createPaymentInstructionRoute } from "./create";
import { deletePaymentInstructionRoute } from "./delete";
import { listPaymentInstructionsRoute } from "./list";
import { retrievePaymentInstructionRoute } from "./retrieve";
import { updatePaymentInstructionRoute } from "./update";

export const paymentInstructionRoutes = [
  createPaymentInstructionRoute,
  listPaymentInstructionsRoute,
  retrievePaymentInstructionRoute,
  updatePaymentInstructionRoute,
  deletePaymentInstructionRoute,
];
