import * as z from "zod";
import { TAX_EFFECTS, TAX_REGIME_IDS, TAX_TREATMENTS } from "../constants";

const ruleVersion = /* @__PURE__ */ z
  .object({
    rule: z.string(),
    description: z.string(),
    treatment: z.enum(TAX_TREATMENTS),
    rate: z
      .string()
      .nullable()
      .describe(globalThis.OMIT_API_DOCS ? "" : "A percentage with its sign (`21%`); null unless taxable."),
    authority_code: z.string().nullable(),
    legal_reference: z.string().nullable(),
    effective_from: z.string().describe("First day the version applies, YYYY-MM-DD."),
    effective_until: z.string().nullable().describe("Last day (inclusive); null when open-ended."),
  })
  .strict();

export const taxRegimeObject = /* @__PURE__ */ z
  .object({
    id: z.enum(TAX_REGIME_IDS),
    object: z.literal("tax_regime"),
    taxes: z.array(
      z
        .object({
          tax: z.string(),
          name: z.string(),
          effect: z.enum(TAX_EFFECTS),
          rules: z.array(ruleVersion),
        })
        .strict(),
    ),
  })
  .strict();
