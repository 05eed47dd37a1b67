import { createInvoice } from "./create";
import { listInvoices } from "./list";
import { retrieveInvoice } from "./retrieve";

export const invoiceRoutes = [createInvoice, listInvoices, retrieveInvoice];
