import { customerObject, updateCustomerBody } from "../../customers/schemas";
import { updateCustomer } from "../../customers/update";
import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";

/** Omitted fields stay; see the seed's update table for nulls. */
export const updateCustomerRoute = route({
  method: "patch",
  path: "/v1/customers/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Customers",
    summary: "Update a customer",
    responses: { 200: { description: "The updated customer.", schema: customerObject } },
    errors: ["invoice_prefix_taken", "invoice_prefix_locked"],
  }),
  request: { params: idParams, json: updateCustomerBody },
  handler: async (c, { params: { id }, json: body }) =>
    c.json(await updateCustomer(writerOf(c), c.get("caller"), id, body)),
});
