import { newRouter } from "../../lib/router";
import { validate } from "../../lib/validation";
import { retrieveAccount } from "./retrieve";
import { updateAccount, updateAccountBody } from "./update";

export const account = newRouter()
  .get("/", (c) => retrieveAccount(c))
  .patch("/", validate("json", updateAccountBody), (c) => updateAccount(c, c.req.valid("json")));
