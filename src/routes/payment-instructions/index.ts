import { newRouter } from "../../lib/router";
import { validate } from "../../lib/validation";
import { createPaymentInstruction } from "./create";
import { deletePaymentInstruction } from "./delete";
import { findPaymentInstruction } from "./find";
import { listPaymentInstructions } from "./list";
import {
  createPaymentInstructionBody,
  listPaymentInstructionsQuery,
  updatePaymentInstructionBody,
} from "./schemas";
import { serializePaymentInstruction } from "./serialize";
import { updatePaymentInstruction } from "./update";

export const paymentInstructions = newRouter()
  .post("/", validate("json", createPaymentInstructionBody), (c) =>
    createPaymentInstruction(c, c.req.valid("json")),
  )
  .get("/", validate("query", listPaymentInstructionsQuery), (c) =>
    listPaymentInstructions(c, c.req.valid("query")),
  )
  .get("/:id", async (c) =>
    c.json(
      serializePaymentInstruction(
        await findPaymentInstruction(c.get("db"), c.get("caller"), c.req.param("id")),
      ),
    ),
  )
  .patch("/:id", validate("json", updatePaymentInstructionBody), (c) =>
    updatePaymentInstruction(c, c.req.param("id"), c.req.valid("json")),
  )
  .delete("/:id", (c) => deletePaymentInstruction(c, c.req.param("id")));
