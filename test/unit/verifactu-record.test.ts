import { describe, expect, it } from "vitest";
import { aeatRate } from "../../src/verifactu/format";
import { recordHash } from "../../src/verifactu/hash";
import { SOFTWARE } from "../../src/verifactu/software";
import {
  customer,
  esInvoice,
  GENERATED_AT,
  GERMAN_CUSTOMER,
  irpf,
  iva,
  line,
  re,
} from "../fixtures/verifactu-invoices";
import { registrationRecord } from "../helpers/verifactu-record";

const first = { previous: null, generatedAt: GENERATED_AT };

describe("VERI*FACTU registration record", () => {
  it("an ordinary invoice is an F1 record identified by issuer NIF, number and DD-MM-YYYY date", async () => {
    const record = await registrationRecord(
      esInvoice({ lines: [line("3", "33.333", iva("general"))] }),
      first,
    );
    expect(record).toMatchObject({
      IDVersion: "1.0",
      IDFactura: {
        IDEmisorFactura: "B12345674",
        NumSerieFactura: "INV-0001",
        FechaExpedicionFactura: "23-11-2026",
      },
      NombreRazonEmisor: "Ferretería Núñez S.L.",
      TipoFactura: "F1",
      DescripcionOperacion: "Consulting",
      Destinatarios: [{ NombreRazon: "Cliente & Hijos <S.A.>", NIF: "12345678Z" }],
      CuotaTotal: "21.00",
      ImporteTotal: "121.00",
      Encadenamiento: { PrimerRegistro: "S" },
      SistemaInformatico: SOFTWARE,
      FechaHoraHusoGenRegistro: "2026-11-23T10:00:00+01:00",
      TipoHuella: "01",
    });
    expect(record).not.toHaveProperty("TipoRectificativa");
    expect(record).not.toHaveProperty("FechaOperacion");
  });

  it("IRPF is withheld, not a quota: CuotaTotal holds IVA and recargo, ImporteTotal the invoice total", async () => {
    const invoice = esInvoice({
      lines: [line("3", "33.333", iva("general"), irpf("professional"), re("general"))],
    });
    const record = await registrationRecord(invoice, first);
    expect(invoice.total).toBe("126.20");
    expect(record.Desglose).toEqual([
      {
        Impuesto: "01",
        ClaveRegimen: "01",
        CalificacionOperacion: "S1",
        TipoImpositivo: "21.00",
        BaseImponibleOimporteNoSujeto: "100.00",
        CuotaRepercutida: "21.00",
        TipoRecargoEquivalencia: "5.20",
        CuotaRecargoEquivalencia: "5.20",
      },
    ]);
    expect(record.CuotaTotal).toBe("26.20");
    expect(record.ImporteTotal).toBe("126.20");
  });

  it("recargo on only some lines of an IVA rate splits the detail in two that add up to the row", async () => {
    const invoice = esInvoice({
      lines: [line("1", "100", iva("general"), re("general")), line("1", "50", iva("general"))],
    });
    const record = await registrationRecord(invoice, first);
    expect(record.Desglose).toEqual([
      expect.objectContaining({
        ClaveRegimen: "01",
        BaseImponibleOimporteNoSujeto: "100.00",
        CuotaRepercutida: "21.00",
        CuotaRecargoEquivalencia: "5.20",
      }),
      {
        Impuesto: "01",
        ClaveRegimen: "01",
        CalificacionOperacion: "S1",
        TipoImpositivo: "21.00",
        BaseImponibleOimporteNoSujeto: "50.00",
        CuotaRepercutida: "10.50",
      },
    ]);
    expect(record.CuotaTotal).toBe("36.70");
    expect(record.ImporteTotal).toBe(invoice.total);
  });

  it("a simplified invoice without customer is an F2 record without Destinatarios", async () => {
    const invoice = esInvoice({
      type: "simplified",
      number: "SIM-0001",
      customer: null,
      lines: [line("2", "10", iva("reduced"))],
    });
    const record = await registrationRecord(invoice, first);
    expect(record.TipoFactura).toBe("F2");
    expect(record).not.toHaveProperty("Destinatarios");
    expect(record.Desglose).toEqual([
      expect.objectContaining({ TipoImpositivo: "10.00", CuotaRepercutida: "2.00" }),
    ]);
  });

  it("a simplified invoice naming its customer is an art. 7.2 F1: FacturaSimplificadaArt7273 S and Destinatarios", async () => {
    const invoice = esInvoice({ type: "simplified", lines: [line("1", "10", iva("general"))] });
    const record = await registrationRecord(invoice, first);
    expect(record).toMatchObject({
      TipoFactura: "F1",
      FacturaSimplificadaArt7273: "S",
      Destinatarios: [{ NombreRazon: "Cliente & Hijos <S.A.>", NIF: "12345678Z" }],
    });
    // An ordinary F1 carries no flag; an F2 neither flag nor recipient.
    const ordinary = await registrationRecord(esInvoice({ lines: [line("1", "10", iva("general"))] }), first);
    expect(ordinary).not.toHaveProperty("FacturaSimplificadaArt7273");
    const anonymous = esInvoice({
      type: "simplified",
      customer: null,
      lines: [line("1", "10", iva("general"))],
    });
    const f2 = await registrationRecord(anonymous, first);
    expect(f2).toMatchObject({ TipoFactura: "F2" });
    expect(f2).not.toHaveProperty("FacturaSimplificadaArt7273");
    expect(f2).not.toHaveProperty("Destinatarios");
  });

  it("a corrective writes FechaOperacion, the corrected invoice's operation date (else its issue date), when it differs from its own issue date", async () => {
    const invoice = esInvoice({
      type: "corrective",
      number: "COR-0001",
      lines: [line("1", "-50", iva("general"))],
      corrects: { invoice: "inv_corrected", reason: "R1" },
    });
    const record = (corrected: { number: string; issue_date: string; operation_date?: string | null }) =>
      registrationRecord(invoice, { ...first, corrected });
    const withOperation = { number: "INV-0001", issue_date: "2026-11-20", operation_date: "2026-10-31" };
    expect((await record(withOperation)).FechaOperacion).toBe("31-10-2026");
    const withoutOperation = { number: "INV-0001", issue_date: "2026-11-20", operation_date: null };
    expect((await record(withoutOperation)).FechaOperacion).toBe("20-11-2026");
    const sameDay = await record({ number: "INV-0001", issue_date: "2026-11-23", operation_date: null });
    expect(sameDay).not.toHaveProperty("FechaOperacion");
  });

  it("recargo de equivalencia charged by a general-regime issuer is ClaveRegimen 01, never 18", async () => {
    const invoice = esInvoice({
      lines: [
        line("1", "100", iva("general"), re("general")),
        line("1", "10", iva("reduced"), re("reduced")),
      ],
    });
    const record = await registrationRecord(invoice, first);
    expect(record.Desglose.map((d) => [d.ClaveRegimen, d.TipoRecargoEquivalencia])).toEqual([
      ["01", "5.20"],
      ["01", "1.40"],
    ]);
  });

  it("Macrodato is S when |ImporteTotal| is 100,000,000.00 EUR or more, and absent below", async () => {
    const total = async (unit_price: string, rule = "exempt_art_20") =>
      registrationRecord(
        esInvoice({ customer: GERMAN_CUSTOMER, lines: [line("1", unit_price, iva(rule))] }),
        first,
      );
    const exact = await total("100000000");
    expect(exact).toMatchObject({ ImporteTotal: "100000000.00", Macrodato: "S" });
    expect(await total("99999999.99")).not.toHaveProperty("Macrodato");
    const negative = await registrationRecord(
      esInvoice({
        type: "corrective",
        lines: [line("1", "-100000000", iva("general"))],
        corrects: { invoice: "inv_corrected", reason: "R4" },
      }),
      { ...first, corrected: { number: "INV-0001", issue_date: "2026-11-23" } },
    );
    expect(negative).toMatchObject({ ImporteTotal: "-121000000.00", Macrodato: "S" });
  });

  it("a corrective invoice is R1–R5 by its reason, by differences (I), naming the corrected invoice", async () => {
    const invoice = esInvoice({
      type: "corrective",
      number: "COR-0001",
      lines: [line("1", "-50", iva("general"))],
      corrects: { invoice: "inv_corrected", reason: "R1" },
    });
    const record = await registrationRecord(invoice, {
      ...first,
      corrected: { number: "INV-0001", issue_date: "2026-11-20" },
    });
    expect(record).toMatchObject({
      TipoFactura: "R1",
      TipoRectificativa: "I",
      FacturasRectificadas: [
        { IDEmisorFactura: "B12345674", NumSerieFactura: "INV-0001", FechaExpedicionFactura: "20-11-2026" },
      ],
      Desglose: [
        expect.objectContaining({ BaseImponibleOimporteNoSujeto: "-50.00", CuotaRepercutida: "-10.50" }),
      ],
      CuotaTotal: "-10.50",
      ImporteTotal: "-60.50",
    });
    expect(record.Destinatarios).toHaveLength(1);
  });

  it("a corrective record cannot be built without the corrected invoice's number and date", async () => {
    const invoice = esInvoice({
      type: "corrective",
      lines: [line("1", "-50", iva("general"))],
      corrects: { invoice: "inv_corrected", reason: "R4" },
    });
    await expect(registrationRecord(invoice, first)).rejects.toThrow(RangeError);
  });

  it("a foreign recipient is IDOtro: EU VAT numbers as NIF-IVA (02), other Tax IDs as 04", async () => {
    const lines = [line("1", "100", iva("exempt_art_25"))];
    const eu = await registrationRecord(esInvoice({ customer: GERMAN_CUSTOMER, lines }), first);
    expect(eu.Destinatarios).toEqual([
      { NombreRazon: "Kunde GmbH", IDOtro: { CodigoPais: "DE", IDType: "02", ID: "DE136695976" } },
    ]);
    const us = customer("Client Inc.", { country: "US", type: "local", value: "123456789" });
    const other = await registrationRecord(esInvoice({ customer: us, lines }), first);
    expect(other.Destinatarios).toEqual([
      { NombreRazon: "Client Inc.", IDOtro: { CodigoPais: "US", IDType: "04", ID: "123456789" } },
    ]);
  });

  it("a Spanish EU VAT number is written as the NIF without its ES prefix", async () => {
    const es = customer("Cliente", { country: "ES", type: "eu_vat", value: "ESB12345674" });
    const record = await registrationRecord(
      esInvoice({ customer: es, lines: [line("1", "1", iva("general"))] }),
      first,
    );
    expect(record.Destinatarios).toEqual([{ NombreRazon: "Cliente", NIF: "B12345674" }]);
  });

  it("exempt rows carry OperacionExenta without rate or quota; exports go under regime 02", async () => {
    const invoice = esInvoice({
      customer: GERMAN_CUSTOMER,
      lines: [line("1", "100", iva("exempt_art_20")), line("1", "200", iva("exempt_art_21"))],
    });
    const record = await registrationRecord(invoice, first);
    expect(record.Desglose).toEqual([
      { Impuesto: "01", ClaveRegimen: "01", OperacionExenta: "E1", BaseImponibleOimporteNoSujeto: "100.00" },
      { Impuesto: "01", ClaveRegimen: "02", OperacionExenta: "E2", BaseImponibleOimporteNoSujeto: "200.00" },
    ]);
    expect(record.CuotaTotal).toBe("0.00");
    expect(record.ImporteTotal).toBe("300.00");
  });

  it("a reverse-charge row follows its authority code: S2 with rate and quota 0, N2 without them", async () => {
    const invoice = esInvoice({
      customer: GERMAN_CUSTOMER,
      lines: [line("1", "100", iva("reverse_charge"))],
    });
    const coded = (code: string) => ({
      ...invoice,
      tax_breakdown: invoice.tax_breakdown.map((r) => ({ ...r, authority_code: code })),
    });
    const domestic = await registrationRecord(coded("S2"), first);
    expect(domestic.Desglose).toEqual([
      {
        Impuesto: "01",
        ClaveRegimen: "01",
        CalificacionOperacion: "S2",
        TipoImpositivo: "0.00",
        BaseImponibleOimporteNoSujeto: "100.00",
        CuotaRepercutida: "0.00",
      },
    ]);
    const abroad = await registrationRecord(coded("N2"), first);
    expect(abroad.Desglose).toEqual([
      {
        Impuesto: "01",
        ClaveRegimen: "01",
        CalificacionOperacion: "N2",
        BaseImponibleOimporteNoSujeto: "100.00",
      },
    ]);
  });

  it("a not-subject row is N1/N2 without rate or quota", async () => {
    const invoice = esInvoice({
      customer: GERMAN_CUSTOMER,
      lines: [line("1", "40", iva("not_subject_location"))],
    });
    const record = await registrationRecord(invoice, first);
    expect(record.Desglose).toEqual([
      {
        Impuesto: "01",
        ClaveRegimen: "01",
        CalificacionOperacion: "N2",
        BaseImponibleOimporteNoSujeto: "40.00",
      },
    ]);
    expect(record.CuotaTotal).toBe("0.00");
  });

  it("a breakdown row without a VERI*FACTU code cannot be recorded", async () => {
    const invoice = esInvoice({ lines: [line("1", "40", iva("general"))] });
    const uncoded = {
      ...invoice,
      tax_breakdown: invoice.tax_breakdown.map((r) => ({ ...r, authority_code: null })),
    };
    await expect(registrationRecord(uncoded, first)).rejects.toThrow(RangeError);
  });

  it("records chain: the next record names the previous one and hashes with its Huella", async () => {
    const one = await registrationRecord(esInvoice({ lines: [line("1", "10", iva("general"))] }), first);
    const invoice = esInvoice({ number: "INV-0002", lines: [line("1", "20", iva("general"))] });
    const two = await registrationRecord(invoice, { previous: one, generatedAt: GENERATED_AT + 5_000 });
    expect(two.Encadenamiento).toEqual({ RegistroAnterior: { ...one.IDFactura, Huella: one.Huella } });
    expect(two.Huella).toBe(
      await recordHash({
        ...two.IDFactura,
        TipoFactura: "F1",
        CuotaTotal: "4.20",
        ImporteTotal: "24.20",
        Huella: one.Huella,
        FechaHoraHusoGenRegistro: "2026-11-23T10:00:05+01:00",
      }),
    );
    expect(two.Huella).not.toBe(one.Huella);
  });

  it("FechaHoraHusoGenRegistro is Spanish peninsular time with its offset, +02:00 in summer", async () => {
    const record = await registrationRecord(esInvoice({ lines: [line("1", "10", iva("general"))] }), {
      previous: null,
      generatedAt: Date.parse("2026-07-01T10:00:00.999Z"),
    });
    expect(record.FechaHoraHusoGenRegistro).toBe("2026-07-01T12:00:00+02:00");
  });

  it("FechaOperacion is written only when the operation date differs from the issue date", async () => {
    const lines = [line("1", "10", iva("general"))];
    const differs = await registrationRecord(esInvoice({ lines, operation_date: "2026-10-31" }), first);
    expect(differs.FechaOperacion).toBe("31-10-2026");
    const same = await registrationRecord(esInvoice({ lines, operation_date: "2026-11-23" }), first);
    expect(same).not.toHaveProperty("FechaOperacion");
  });

  it("names are clipped to the XSD's 120 characters and the description to 500", async () => {
    const long = customer("N".repeat(130), { country: "ES", type: "es_nif", value: "12345678Z" });
    const lines = Array.from({ length: 60 }, () => ({
      ...line("1", "1", iva("general")),
      description: "é".repeat(10),
    }));
    const record = await registrationRecord(esInvoice({ customer: long, lines }), first);
    expect(record.Destinatarios?.[0]?.NombreRazon).toBe("N".repeat(120));
    expect(Array.from(record.DescripcionOperacion)).toHaveLength(500);
  });

  it("a rate with more than two decimals cannot be written and is refused, not rounded", () => {
    expect(aeatRate("21%")).toBe("21.00");
    expect(aeatRate("5.2%")).toBe("5.20");
    expect(aeatRate("1.75%")).toBe("1.75");
    expect(() => aeatRate("0.625%")).toThrow(/more than two decimals/);
  });
});
