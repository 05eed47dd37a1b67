import { describe, expect, it } from "vitest";
import { cancellationBody, sealCancellation } from "../../src/verifactu/record";
import {
  escapeText,
  NS_LR,
  NS_SF,
  registrationXml,
  registroAltaXml,
  registroAnulacionXml,
} from "../../src/verifactu/xml";
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

/** The names of `element`'s child elements, in document order (the XML has no whitespace). */
function children(xml: string, element: string): string[] {
  const start = xml.indexOf(`<sf:${element}>`);
  const end = xml.indexOf(`</sf:${element}>`, start);
  expect(start, `<sf:${element}> in ${xml}`).toBeGreaterThanOrEqual(0);
  const names: string[] = [];
  let depth = 0;
  for (const [, closing, name] of xml.slice(start + element.length + 5, end).matchAll(/<(\/?)sf:(\w+)>/g)) {
    if (closing) depth--;
    else if (depth++ === 0) names.push(name!);
  }
  return names;
}

describe("VERI*FACTU cancellation and subsanación XML", () => {
  const cancel = async (sinRegistroPrevio: boolean) => {
    const alta = await build();
    const sealed = await sealCancellation(cancellationBody(alta.IDFactura), {
      previous: { IDFactura: alta.IDFactura, Huella: alta.Huella },
      generatedAt: GENERATED_AT + 60_000,
    });
    return sinRegistroPrevio ? { ...sealed, SinRegistroPrevio: "S" as const } : sealed;
  };

  it("RegistroAnulacion is written in the XSD's order (RegistroFacturacionAnulacionType)", async () => {
    const xml = registroAnulacionXml(await cancel(true));
    expect(children(xml, "RegistroAnulacion")).toEqual([
      "IDVersion",
      "IDFactura",
      "SinRegistroPrevio",
      "Encadenamiento",
      "SistemaInformatico",
      "FechaHoraHusoGenRegistro",
      "TipoHuella",
      "Huella",
    ]);
    expect(children(xml, "IDFactura")).toEqual([
      "IDEmisorFacturaAnulada",
      "NumSerieFacturaAnulada",
      "FechaExpedicionFacturaAnulada",
    ]);
    expect(xml).toContain(
      "<sf:IDFactura><sf:IDEmisorFacturaAnulada>B12345674</sf:IDEmisorFacturaAnulada>" +
        "<sf:NumSerieFacturaAnulada>INV-0001</sf:NumSerieFacturaAnulada>" +
        "<sf:FechaExpedicionFacturaAnulada>23-11-2026</sf:FechaExpedicionFacturaAnulada></sf:IDFactura>" +
        "<sf:SinRegistroPrevio>S</sf:SinRegistroPrevio><sf:Encadenamiento><sf:RegistroAnterior>",
    );
  });

  it("without SinRegistroPrevio the element is left out, the order otherwise the same", async () => {
    const record = await cancel(false);
    const xml = registroAnulacionXml(record);
    expect(children(xml, "RegistroAnulacion")).toEqual([
      "IDVersion",
      "IDFactura",
      "Encadenamiento",
      "SistemaInformatico",
      "FechaHoraHusoGenRegistro",
      "TipoHuella",
      "Huella",
    ]);
    expect(xml).toContain(`<sf:Huella>${record.Huella}</sf:Huella></sf:RegistroAnulacion>`);
    // A cancellation alone is a whole document too, named by its issuer's NIF.
    expect(registrationXml(record)).toContain(
      `<sf:NIF>B12345674</sf:NIF></sf:ObligadoEmision></sfLR:Cabecera><sfLR:RegistroFactura>${xml}</sfLR:RegistroFactura>`,
    );
  });

  it.each([
    [{ Subsanacion: "S", RechazoPrevio: "X" }, ["Subsanacion", "RechazoPrevio"]],
    [{ Subsanacion: "S", RechazoPrevio: "S" }, ["Subsanacion", "RechazoPrevio"]],
    [{ Subsanacion: "S" }, ["Subsanacion"]],
  ] as const)("Subsanacion and RechazoPrevio %o come right after NombreRazonEmisor", async (flags, names) => {
    const xml = registroAltaXml({ ...(await build()), ...flags });
    expect(children(xml, "RegistroAlta").slice(0, 4 + names.length)).toEqual([
      "IDVersion",
      "IDFactura",
      "NombreRazonEmisor",
      ...names,
      "TipoFactura",
    ]);
    expect(xml).toContain(
      "</sf:NombreRazonEmisor><sf:Subsanacion>S</sf:Subsanacion>" +
        ("RechazoPrevio" in flags ? `<sf:RechazoPrevio>${flags.RechazoPrevio}</sf:RechazoPrevio>` : "") +
        "<sf:TipoFactura>F1</sf:TipoFactura>",
    );
  });

  it("a first registration has neither flag", async () => {
    const xml = registroAltaXml(await build());
    expect(xml).not.toContain("Subsanacion");
    expect(xml).not.toContain("RechazoPrevio");
  });
});
