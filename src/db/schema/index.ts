export * from "./accounts";
export * from "./balance-transactions";
export * from "./customers";
export * from "./directory";
export * from "./events";
export * from "./invoices";
export * from "./payment-instructions";
export * from "./tax-ids";
