import { createCustomerRoute } from "./create";
import { deleteCustomerRoute } from "./delete";
import { listCustomersRoute } from "./list";
import { retrieveCustomerRoute } from "./retrieve";
import { updateCustomerRoute } from "./update";

export const customerRoutes = [
  createCustomerRoute,
  listCustomersRoute,
  retrieveCustomerRoute,
  updateCustomerRoute,
  deleteCustomerRoute,
];
