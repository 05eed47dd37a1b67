import * as z from "zod";
import { route } from "../../http/route";
import { verifactuStatus } from "../../verifactu/status";

const statusObject = /* @__PURE__ */ z
  .object({
    object: z.literal("verifactu_status"),
    live: z.boolean(),
    pending: z.number().int().describe("Records generated and not yet answered by the registry."),
    oldest_pending_at: z.string().nullable().describe("When the oldest of them was generated."),
    incident_since: z
      .string()
      .nullable()
      .describe(
        "Since when sending fails (an incident, Orden HAC/1177/2024 art. 16.4); null when it does not.",
      ),
    last_accepted_at: z.string().nullable().describe("When the registry last accepted one of the records."),
  })
  .strict();

export const retrieveVerifactuStatusRoute = route({
  method: "get",
  path: "/v1/verifactu/status",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "VERI*FACTU",
    summary: "Retrieve the VERI*FACTU sending status",
    responses: {
      200: {
        description: "How the environment's records are being sent to the registry.",
        schema: statusObject,
      },
    },
  }),
  handler: async (c) => c.json(await verifactuStatus(c.get("db"), c.get("caller"))),
});
