import { ApiError } from "../../http/errors";
import { idParams, route } from "../../http/route";
import { sealThrough } from "../../verifactu/seal";
import type { RegistroAlta } from "../../contracts/verifactu-record";
import { registrationXml } from "../../verifactu/xml";
import { findInvoice } from "../../invoices/find";

export const retrieveVerifactuRecord = route({
  method: "get",
  path: "/v1/invoices/:id/verifactu-record",
  tag: "Invoices",
  summary: "Retrieve an invoice's VERI*FACTU record",
  request: { params: idParams },
  responses: {
    200: {
      description:
        "The registration record as the AEAT XML document it is sent in (a RegFactuSistemaFacturacion holding just this record): the same bytes the registry client sends.",
      contentType: "application/xml",
    },
  },
  handler: async (c, { params }) => {
    const db = c.get("db");
    const caller = c.get("caller");
    let row = await findInvoice(db, caller, params.id, true);
    if (row.verifactuSeq === null) {
      throw new ApiError(
        "resource_missing",
        `Invoice '${params.id}' has no VERI*FACTU record: only invoices of es accounts are registered.`,
        { param: "id" },
      );
    }
    // Issued moments ago and not sealed yet: seal the chain up to it now (deterministic, so
    // the consumer computes the same record).
    if (row.verifactuHash === null) {
      await sealThrough(db, caller, row.verifactuSeq);
      row = await findInvoice(db, caller, params.id, true);
    }
    return c.body(registrationXml(row.verifactuRecord as RegistroAlta), 200, {
      "Content-Type": "application/xml; charset=utf-8",
    });
  },
});
