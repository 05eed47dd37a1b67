import type { SistemaInformatico } from "../contracts/verifactu-record";

/**
 * This service as the invoicing software of every record (`SistemaInformatico`).
 *
 * `NIF` is a placeholder (`00000000T`, a well-formed DNI of nobody): the producer's real NIF
 * must replace it before Live records reach AEAT, and the producer's declaración responsable
 * must name the same name, id and version. One multi-tenant installation serves every account,
 * hence `TipoUsoPosibleMultiOT` and `IndicadorMultiplesOT` `S`.
 */
export const SOFTWARE: SistemaInformatico = {
  NombreRazon: "Invoicing API",
  NIF: "00000000T",
  NombreSistemaInformatico: "invoicing-api",
  IdSistemaInformatico: "IA",
  Version: "0.1.0",
  NumeroInstalacion: "cloud-1",
  TipoUsoPosibleSoloVerifactu: "S",
  TipoUsoPosibleMultiOT: "S",
  IndicadorMultiplesOT: "S",
};
