/**
 * What cannot be said on a request field itself. Descriptions, patterns and examples live on
 * the zod fields (`.meta()`), where `z.toJSONSchema` reads them; what is left here needs the
 * converter: a field checked by code whose accepted shapes are other zod schemas. Keyed by the
 * schema objects themselves, so a renamed or removed field fails the build here.
 */
import type * as z from "zod";
import { catalogTax, customTax, lineTax } from "../../src/invoices/schemas";
import type { JsonSchema } from "./schemas";

/** Given the generated schema and the converter (for schemas inside), the keywords to merge in. */
type Override = (generated: JsonSchema, convert: (schema: z.ZodType) => JsonSchema) => JsonSchema;

/** The additions, by schema. */
export const inputOverrides = new Map<z.ZodType, Override>([
  // An invoice line's tax is `z.unknown()` picked by its keys (a union would name the whole
  // entry in its errors, not the field inside), so its JSON Schema is the two shapes it accepts.
  [lineTax, (_, convert) => ({ anyOf: [convert(catalogTax), convert(customTax)] })],
]);
