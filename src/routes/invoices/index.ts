import { createInvoiceRoute } from "./create";
import { listInvoicesRoute } from "./list";
import { retrieveInvoicePdfRoute } from "./pdf";
import { retrieveInvoiceRoute } from "./retrieve";
import { retrieveVerifactuRecordRoute } from "./verifactu-record";

export const invoiceRoutes = [
  createInvoiceRoute,
  listInvoicesRoute,
  retrieveInvoiceRoute,
  retrieveVerifactuRecordRoute,
  retrieveInvoicePdfRoute,
];
