import { notFound } from "../../http/errors";
import { idParams, route } from "../../http/route";
import { isTaxRegimeId } from "../../tax/catalog";
import { CATALOG_KEYS } from "../../tax/documents";
import { taxRegimeObject } from "../../tax/schemas";
import { conditional, serveCatalog } from "../../tax/serve";

export const retrieveTaxRegimeRoute = route({
  method: "get",
  path: "/v1/tax-regimes/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Tax regimes",
    summary: "Retrieve a tax regime",
    responses: {
      200: { description: "The regime with every effective-dated rule version.", schema: taxRegimeObject },
      304: { description: "Not modified (`If-None-Match` matched the ETag)." },
    },
  }),
  public: true,
  request: { params: idParams },
  middleware: [conditional],
  handler: (c, { params: { id } }) => {
    if (!isTaxRegimeId(id)) throw notFound("tax regime", id);
    return serveCatalog(c, CATALOG_KEYS.regime(id));
  },
});
