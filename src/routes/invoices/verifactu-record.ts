import * as z from "zod";
import { idParams, route } from "../../http/route";
import { verifactuRecordXml } from "../../invoices/verifactu-record";

export const retrieveVerifactuRecordRoute = route({
  method: "get",
  path: "/v1/invoices/:id/verifactu-record",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Invoices",
    summary: "Retrieve an invoice's VERI*FACTU record",
    responses: {
      200: {
        description:
          "The registration record as the AEAT XML document it is sent in (a RegFactuSistemaFacturacion holding just this record): the same bytes the registry client sends.",
        contentType: "application/xml",
      },
    },
  }),
  request: { params: idParams },
  handler: async (c, { params }) =>
    c.body(await verifactuRecordXml(c.get("db"), c.env, c.get("caller"), params.id), 200, {
      "Content-Type": "application/xml; charset=utf-8",
    }),
});

export const retrieveVerifactuRecordByIdRoute = route({
  method: "get",
  path: "/v1/invoices/:id/verifactu-records/:record",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Invoices",
    summary: "Retrieve one of an invoice's VERI*FACTU records",
    responses: {
      200: {
        description:
          "A registration, subsanación or cancellation record of the invoice (its `verifactu.records[].url`), as the AEAT XML document it is sent in.",
        contentType: "application/xml",
      },
    },
  }),
  request: { params: z.object({ id: z.string(), record: z.string() }).strict() },
  handler: async (c, { params }) =>
    c.body(await verifactuRecordXml(c.get("db"), c.env, c.get("caller"), params.id, params.record), 200, {
      "Content-Type": "application/xml; charset=utf-8",
    }),
});
