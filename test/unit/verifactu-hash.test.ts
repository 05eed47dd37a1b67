import { describe, expect, it } from "vitest";
import { cancellationHash, hashInput, recordHash } from "../../src/verifactu/hash";

// AEAT's published examples ("Detalle de las especificaciones técnicas para generación de la
// huella o hash de los registros de facturación").
const FIRST = {
  IDEmisorFactura: "89890001K",
  NumSerieFactura: "12345678/G33",
  FechaExpedicionFactura: "01-01-2024",
  TipoFactura: "F1",
  CuotaTotal: "12.35",
  ImporteTotal: "123.45",
  Huella: "",
  FechaHoraHusoGenRegistro: "2024-01-01T19:20:30+01:00",
};
const FIRST_HASH = "3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60";
const SECOND = {
  ...FIRST,
  NumSerieFactura: "12345679/G34",
  Huella: FIRST_HASH,
  FechaHoraHusoGenRegistro: "2024-01-01T19:20:35+01:00",
};
const SECOND_HASH = "F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97";

describe("VERI*FACTU record hash", () => {
  it("the first registration record of a chain hashes to AEAT's published value", async () => {
    expect(hashInput(FIRST)).toBe(
      "IDEmisorFactura=89890001K&NumSerieFactura=12345678/G33&FechaExpedicionFactura=01-01-2024&TipoFactura=F1&CuotaTotal=12.35&ImporteTotal=123.45&Huella=&FechaHoraHusoGenRegistro=2024-01-01T19:20:30+01:00",
    );
    expect(await recordHash(FIRST)).toBe(FIRST_HASH);
  });

  it("a chained registration record includes the previous Huella and hashes to AEAT's value", async () => {
    expect(await recordHash(SECOND)).toBe(SECOND_HASH);
  });

  it("a cancellation record hashes to AEAT's published value", async () => {
    const hash = await cancellationHash({
      IDEmisorFacturaAnulada: "89890001K",
      NumSerieFacturaAnulada: "12345679/G34",
      FechaExpedicionFacturaAnulada: "01-01-2024",
      Huella: SECOND_HASH,
      FechaHoraHusoGenRegistro: "2024-01-01T19:20:40+01:00",
    });
    expect(hash).toBe("177547C0D57AC74748561D054A9CEC14B4C4EA23D1BEFD6F2E69E3A388F90C68");
  });

  it("values are trimmed before hashing", async () => {
    expect(await recordHash({ ...FIRST, NumSerieFactura: "  12345678/G33 ", ImporteTotal: "123.45\t" })).toBe(
      FIRST_HASH,
    );
  });

  it("the hash is 64 uppercase hex characters and changes with any hashed field", async () => {
    const other = await recordHash({ ...FIRST, ImporteTotal: "123.46" });
    expect(other).toMatch(/^[0-9A-F]{64}$/);
    expect(other).not.toBe(FIRST_HASH);
  });
});
