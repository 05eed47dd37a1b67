import * as z from "zod";
import { ApiError } from "../http/errors";
import { declarationInputFor } from "./software";

/** `GET /v1/verifactu/declaration` (src/verifactu/declaration-document.ts builds it). */
export const declarationObject = /* @__PURE__ */ z
  .object({
    object: z.literal("verifactu_declaration"),
    title: z
      .string()
      .describe("«DECLARACIÓN RESPONSABLE DEL SISTEMA INFORMÁTICO DE FACTURACIÓN» (art. 15.1)."),
    legal_basis: z.string().describe("Orden HAC/1177/2024, article 15."),
    development_placeholder: z
      .boolean()
      .describe("True only under `npm start` without a configured identity: no producer's declaration."),
    sistema_informatico: z
      .object({
        NombreRazon: z.string(),
        NIF: z.string(),
        NombreSistemaInformatico: z.string(),
        IdSistemaInformatico: z.string(),
        Version: z.string(),
        NumeroInstalacion: z.string(),
        TipoUsoPosibleSoloVerifactu: z.enum(["S", "N"]),
        TipoUsoPosibleMultiOT: z.enum(["S", "N"]),
        IndicadorMultiplesOT: z.enum(["S", "N"]),
      })
      .strict()
      .describe("The `SistemaInformatico` block every VERI*FACTU record of this deployment carries."),
    items: z
      .array(
        z
          .object({
            item: z.string().describe("The letter of Orden HAC/1177/2024 art. 15.1, `a` to `l`."),
            label: z.string().describe("The text that precedes the datum (art. 15.1), in Spanish."),
            value: z.string(),
          })
          .strict(),
      )
      .describe("Items a) to l) of art. 15.1, in that order."),
  })
  .strict();

/**
 * The declaración responsable as JSON or as a PDF, built and rendered by the renderer Worker
 * (src/pdf/worker.ts `POST /declaration`). 409 `verifactu_declaration_unavailable` when the
 * deployment has no producer identity (production without the `VERIFACTU_` variables).
 */
export async function readDeclaration(env: Env, pdf: boolean): Promise<{ type: string; body: ArrayBuffer }> {
  const input = declarationInputFor(env);
  if (!input) {
    throw new ApiError(
      "verifactu_declaration_unavailable",
      "This deployment has no VERI*FACTU software identity configured.",
    );
  }
  const type = pdf ? "application/pdf" : "application/json";
  const res = await env.PDF_RENDERER.fetch("https://pdf-renderer/declaration", {
    method: "POST",
    headers: { Accept: type },
    body: JSON.stringify(input),
  });
  if (!res.ok) throw new Error(`the PDF renderer answered ${res.status}`);
  return { type, body: await res.arrayBuffer() };
}
