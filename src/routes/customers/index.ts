import { createCustomer } from "./create";
import { deleteCustomer } from "./delete";
import { listCustomers } from "./list";
import { retrieveCustomer } from "./retrieve";
import { updateCustomer } from "./update";

export const customerRoutes = [
  createCustomer,
  listCustomers,
  retrieveCustomer,
  updateCustomer,
  deleteCustomer,
];
