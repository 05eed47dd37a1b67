import { createInvoice } from "./create";
import { listInvoices } from "./list";
import { retrieveInvoice } from "./retrieve";
import { retrieveVerifactuRecord } from "./verifactu-record";

export const invoiceRoutes = [createInvoice, listInvoices, retrieveInvoice, retrieveVerifactuRecord];
