import * as z from "zod";
import { route } from "../http/route";

/** A static route with no bindings: the floor that benchmarks compare every endpoint to. */
export const healthRoute = route({
  method: "get",
  path: "/health",
  tag: "Health",
  summary: "Health check",
  public: true,
  responses: {
    200: { description: "The Worker answers.", schema: z.object({ status: z.literal("ok") }).strict() },
  },
  handler: (c) => c.json({ status: "ok" as const }),
});
