import { newRouter } from "../../lib/router";
import { validate } from "../../lib/validation";
import { createCustomer } from "./create";
import { deleteCustomer } from "./delete";
import { listCustomers } from "./list";
import { retrieveCustomer } from "./retrieve";
import { createCustomerBody, listCustomersQuery, updateCustomerBody } from "./schemas";
import { updateCustomer } from "./update";

export const customers = newRouter()
  .post("/", validate("json", createCustomerBody), (c) => createCustomer(c, c.req.valid("json")))
  .get("/", validate("query", listCustomersQuery), (c) => listCustomers(c, c.req.valid("query")))
  .get("/:id", (c) => retrieveCustomer(c, c.req.param("id")))
  .patch("/:id", validate("json", updateCustomerBody), (c) =>
    updateCustomer(c, c.req.param("id"), c.req.valid("json")),
  )
  .delete("/:id", (c) => deleteCustomer(c, c.req.param("id")));
