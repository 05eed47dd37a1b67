import { route } from "../../http/route";
import { listOf } from "../../http/schemas";
import { CATALOG_KEYS } from "../../tax/documents";
import { taxRegimeObject } from "../../tax/schemas";
import { conditional, serveCatalog } from "../../tax/serve";

export const listTaxRegimesRoute = route({
  method: "get",
  path: "/v1/tax-regimes",
  tag: "Tax regimes",
  summary: "List tax regimes",
  public: true,
  responses: {
    200: { description: "Every regime with every rule version.", schema: listOf(taxRegimeObject) },
    304: { description: "Not modified (`If-None-Match` matched the ETag)." },
  },
  middleware: [conditional],
  handler: (c) => serveCatalog(c, CATALOG_KEYS.list),
});
