import { deleteCustomer } from "../../customers/delete";
import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";

/** 204 with no body; the event carries the customer as it was. A customer named by an invoice is a 409. */
export const deleteCustomerRoute = route({
  method: "delete",
  path: "/v1/customers/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Customers",
    summary: "Delete a customer",
    responses: { 204: { description: "Deleted." } },
    errors: ["resource_in_use"],
  }),
  request: { params: idParams },
  handler: async (c, { params: { id } }) => {
    await deleteCustomer(writerOf(c), c.get("caller"), id);
    return c.body(null, 204);
  },
});
