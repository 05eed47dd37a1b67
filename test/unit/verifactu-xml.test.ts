import { describe, expect, it } from "vitest";
import { escapeText, NS_LR, NS_SF, registrationXml } from "../../src/verifactu/xml";
import { customer, esInvoice, GENERATED_AT, iva, line } from "../fixtures/verifactu-invoices";
import { registrationRecord } from "../helpers/verifactu-record";

const build = (name = "Smith & <Sons>") =>
  registrationRecord(
    esInvoice({
      customer: customer(name, { country: "ES", type: "es_nif", value: "12345678Z" }),
      lines: [line("1", "10", iva("general"))],
    }),
    { previous: null, generatedAt: GENERATED_AT },
  );

describe("VERI*FACTU registration XML", () => {
  it("the document is a RegFactuSistemaFacturacion in AEAT's namespaces holding one RegistroAlta", async () => {
    const xml = registrationXml(await build());
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?><sfLR:RegFactuSistemaFacturacion')).toBe(
      true,
    );
    expect(xml).toContain(`xmlns:sfLR="${NS_LR}"`);
    expect(xml).toContain(`xmlns:sf="${NS_SF}"`);
    expect(xml).toContain(
      "<sfLR:Cabecera><sf:ObligadoEmision><sf:NombreRazon>Ferretería Núñez S.L.</sf:NombreRazon><sf:NIF>B12345674</sf:NIF></sf:ObligadoEmision></sfLR:Cabecera>",
    );
    expect(xml.match(/<sf:RegistroAlta>/g)).toHaveLength(1);
  });

  it("the same record always gives the same bytes, whatever the order of its keys", async () => {
    const record = await build();
    const reversed = Object.fromEntries(Object.entries(record).reverse()) as typeof record;
    expect(registrationXml(reversed)).toBe(registrationXml(record));
    expect(registrationXml(await build())).toBe(registrationXml(record));
  });

  it("text is escaped: &, <, > and carriage returns", async () => {
    expect(registrationXml(await build())).toContain(
      "<sf:NombreRazon>Smith &amp; &lt;Sons&gt;</sf:NombreRazon>",
    );
    expect(escapeText('a\r\nb "c"')).toBe('a&#13;\nb "c"');
  });

  it("characters XML 1.0 cannot hold are refused rather than written", () => {
    expect(() => escapeText("bell\u0007")).toThrow(RangeError);
  });

  it("the record's hash, amounts and dates appear exactly as hashed", async () => {
    const record = await build();
    const xml = registrationXml(record);
    expect(xml).toContain(`<sf:Huella>${record.Huella}</sf:Huella>`);
    expect(xml).toContain("<sf:CuotaTotal>2.10</sf:CuotaTotal><sf:ImporteTotal>12.10</sf:ImporteTotal>");
    expect(xml).toContain(
      "<sf:FechaHoraHusoGenRegistro>2026-11-23T10:00:00+01:00</sf:FechaHoraHusoGenRegistro>",
    );
  });
});
