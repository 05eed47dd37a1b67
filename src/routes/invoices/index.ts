import { createInvoice } from "./create";
import { listInvoices } from "./list";
import { retrieveInvoicePdf } from "./pdf";
import { retrieveInvoice } from "./retrieve";
import { retrieveVerifactuRecord } from "./verifactu-record";

export const invoiceRoutes = [
  createInvoice,
  listInvoices,
  retrieveInvoice,
  retrieveVerifactuRecord,
  retrieveInvoicePdf,
];
