import { createPaymentInstruction } from "./create";
import { deletePaymentInstruction } from "./delete";
import { listPaymentInstructions } from "./list";
import { retrievePaymentInstruction } from "./retrieve";
import { updatePaymentInstruction } from "./update";

export const paymentInstructionRoutes = [
  createPaymentInstruction,
  listPaymentInstructions,
  retrievePaymentInstruction,
  updatePaymentInstruction,
  deletePaymentInstruction,
];
