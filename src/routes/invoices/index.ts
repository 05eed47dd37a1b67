import { createInvoiceRoute } from "./create";
import { deleteInvoiceRoute } from "./delete";
import { retrieveInvoiceFacturaeRoute, retrieveInvoiceUblRoute } from "./einvoice";
import { finalizeInvoiceRoute } from "./finalize";
import { listInvoicesRoute } from "./list";
import { retrieveInvoicePdfRoute } from "./pdf";
import { resubmitVerifactuRoute } from "./resubmit";
import { retrieveInvoiceRoute } from "./retrieve";
import { updateInvoiceRoute } from "./update";
import { retrieveVerifactuRecordByIdRoute, retrieveVerifactuRecordRoute } from "./verifactu-record";
import { voidInvoiceRoute } from "./void";

export const invoiceRoutes = [
  createInvoiceRoute,
  listInvoicesRoute,
  retrieveInvoiceRoute,
  updateInvoiceRoute,
  deleteInvoiceRoute,
  finalizeInvoiceRoute,
  retrieveVerifactuRecordRoute,
  retrieveVerifactuRecordByIdRoute,
  resubmitVerifactuRoute,
  retrieveInvoicePdfRoute,
  retrieveInvoiceUblRoute,
  retrieveInvoiceFacturaeRoute,
  voidInvoiceRoute,
];
