import * as z from "zod";

export const balanceObject = z
  .object({
    object: z.literal("balance"),
    live: z.boolean(),
    currency: z.literal("EUR"),
    available: z
      .string()
      .describe('The newest balance transaction\'s balance_after; "0.00" before the first. May be negative.'),
  })
  .strict();
