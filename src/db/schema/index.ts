export * from "./accounts";
export * from "./customers";
