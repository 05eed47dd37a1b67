import { route } from "../../http/route";
import { listOf } from "../../http/schemas";
import { CATALOG_KEYS } from "../../tax/documents";
import { taxRegimeObject } from "../../tax/schemas";
import { conditional, serveCatalog } from "../../tax/serve";

export const listTaxRegimesRoute = route({
  method: "get",
  path: "/v1/tax-regimes",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Tax regimes",
    summary: "List tax regimes",
    responses: {
      200: { description: "Every regime with every rule version.", schema: listOf(taxRegimeObject) },
      304: { description: "Not modified (`If-None-Match` matched the ETag)." },
    },
  }),
  public: true,
  middleware: [conditional],
  handler: (c) => serveCatalog(c, CATALOG_KEYS.list),
});
