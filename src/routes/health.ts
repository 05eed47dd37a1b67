import * as z from "zod";
import { route } from "../http/route";

/** A static route with no bindings: the floor that benchmarks compare every endpoint to. */
export const healthRoute = route({
  method: "get",
  path: "/health",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Health",
    summary: "Health check",
    responses: {
      200: { description: "The Worker answers.", schema: z.object({ status: z.literal("ok") }).strict() },
    },
  }),
  public: true,
  handler: (c) => c.json({ status: "ok" as const }),
});
