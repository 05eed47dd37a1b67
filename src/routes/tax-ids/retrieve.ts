import { idParams, route } from "../../http/route";
import { findTaxId } from "../../tax-ids/find";
import { taxIdObject } from "../../tax-ids/schemas";
import { serializeTaxId } from "../../tax-ids/serialize";

/** Any Tax ID of the caller's account and environment, a replaced one too, with its own verification. */
export const retrieveTaxIdRoute = route({
  method: "get",
  path: "/v1/tax-ids/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Tax IDs",
    summary: "Retrieve a Tax ID",
    responses: { 200: { description: "The Tax ID with its latest verification.", schema: taxIdObject } },
  }),
  request: { params: idParams },
  handler: async (c, { params }) =>
    c.json(serializeTaxId(await findTaxId(c.get("db"), c.get("caller"), params.id))),
});
