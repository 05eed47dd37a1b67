import { createInvoiceRoute } from "./create";
import { deleteInvoiceRoute } from "./delete";
import { finalizeInvoiceRoute } from "./finalize";
import { listInvoicesRoute } from "./list";
import { retrieveInvoicePdfRoute } from "./pdf";
import { retrieveInvoiceRoute } from "./retrieve";
import { updateInvoiceRoute } from "./update";
import { resubmitVerifactuRoute } from "./resubmit";
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
  voidInvoiceRoute,
];
