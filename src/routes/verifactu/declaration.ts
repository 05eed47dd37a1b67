import { route } from "../../http/route";
import { declarationObject, readDeclaration } from "../../verifactu/declaration";

export const retrieveDeclarationRoute = route({
  method: "get",
  path: "/v1/verifactu/declaration",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "VERI*FACTU",
    summary: "Retrieve the declaración responsable",
    responses: {
      200: {
        description:
          "The software producer's declaración responsable (Orden HAC/1177/2024 art. 15): items a) to l), with the values every VERI*FACTU record carries. With `Accept: application/pdf`, the same declaration as a PDF.",
        schema: declarationObject,
      },
    },
    errors: ["verifactu_declaration_unavailable"],
  }),
  public: true,
  handler: async (c) => {
    const { type, body } = await readDeclaration(
      c.env,
      /application\/pdf/i.test(c.req.header("Accept") ?? ""),
    );
    return c.body(body, 200, { "Content-Type": type, Vary: "Accept" });
  },
});
