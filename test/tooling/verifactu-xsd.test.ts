import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChainRecord, type RegistroAlta, recordId } from "../../src/contracts/verifactu-record";
import { cancellationHash } from "../../src/verifactu/hash";
import { cancellationBody, recordBody, sealCancellation, sealRecord } from "../../src/verifactu/record";
import { regFactuXml, registrationXml, XML_DECLARATION } from "../../src/verifactu/xml";
import {
  customer,
  esInvoice,
  GENERATED_AT,
  GERMAN_CUSTOMER,
  type InvoiceSpec,
  irpf,
  iva,
  line,
  re,
} from "../fixtures/verifactu-invoices";
import { registrationRecord } from "../helpers/verifactu-record";

/**
 * The registration XML validated against AEAT's own schemas (copied in test/fixtures/verifactu-xsd)
 * with xmllint, offline (`--nonet`). Runs in Node: workerd cannot start programs.
 */

const SCHEMA = decodeURIComponent(
  new URL("../fixtures/verifactu-xsd/SuministroLR.xsd", import.meta.url).pathname,
);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(`${tmpdir()}/verifactu-xsd-`);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const xmllint = (...args: string[]) => spawnSync("xmllint", args, { encoding: "utf8" });

/** xmllint's verdict on a document written to the temp dir: exit code and messages. */
function validate(name: string, xml: string): { code: number | null; output: string } {
  const file = `${dir}/${name}.xml`;
  writeFileSync(file, xml, "utf8");
  const result = xmllint("--nonet", "--noout", "--schema", SCHEMA, file);
  return { code: result.status, output: result.error ? String(result.error) : result.stderr };
}

const PREVIOUS: Pick<RegistroAlta, "IDFactura" | "Huella"> = {
  IDFactura: {
    IDEmisorFactura: "B12345674",
    NumSerieFactura: "INV-0000",
    FechaExpedicionFactura: "22-11-2026",
  },
  Huella: "3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60",
};
// Its operation date differs from every corrective's issue date: their records carry FechaOperacion.
const corrected = { number: "INV-0001", issue_date: "2026-11-20", operation_date: "2026-10-31" };

const CASES: Record<string, InvoiceSpec> = {
  "F1 with IVA, IRPF and recargo": {
    lines: [line("3", "33.333", iva("general"), irpf("professional"), re("general"))],
  },
  "F1 with several rates, partial recargo and an operation date": {
    operation_date: "2026-10-31",
    lines: [
      line("1", "100", iva("general"), re("general")),
      line("2", "25.5", iva("general")),
      line("1", "10", iva("reduced"), re("reduced")),
      line("4", "1.99", iva("super_reduced")),
    ],
  },
  "F2 simplified without customer": {
    type: "simplified",
    number: "SIM-0001",
    customer: null,
    lines: [line("1", "9.99", iva("general"))],
  },
  "F1 simplified invoice with a customer (art. 7.2: FacturaSimplificadaArt7273 and Destinatarios)": {
    type: "simplified",
    number: "SIM-0002",
    lines: [line("1", "9.99", iva("general"))],
  },
  "R4 corrective with FechaOperacion (the corrected invoice's operation date)": {
    type: "corrective",
    number: "COR-0003",
    corrects: { invoice: "inv_corrected", reason: "R4" },
    lines: [line("1", "-20", iva("reduced"))],
  },
  "recargo de equivalencia under ClaveRegimen 01": {
    lines: [
      line("1", "100", iva("general"), re("general")),
      line("1", "50", iva("super_reduced"), re("super_reduced")),
    ],
  },
  "Macrodato record (ImporteTotal of 100,000,000.00 EUR or more)": {
    lines: [line("1", "100000000", iva("general"), re("general"))],
  },
  "R1 corrective with negative amounts": {
    type: "corrective",
    number: "COR-0001",
    corrects: { invoice: "inv_corrected", reason: "R1" },
    lines: [line("1", "-50", iva("general"), irpf("professional"))],
  },
  "R5 corrective of a simplified invoice": {
    type: "corrective",
    number: "COR-0002",
    corrects: { invoice: "inv_corrected", reason: "R5" },
    lines: [line("1", "-5", iva("general"))],
  },
  "EU recipient with exempt and not-subject rows": {
    customer: GERMAN_CUSTOMER,
    lines: [
      line("1", "100", iva("exempt_art_25")),
      line("1", "200", iva("exempt_art_21")),
      line("1", "300", iva("reverse_charge")),
      line("1", "40", iva("not_subject_location")),
    ],
  },
  "non-EU recipient, escaped text": {
    customer: customer('Smith & <Sons> "Ltd"', { country: "US", type: "local", value: "12-3456789" }),
    lines: [{ ...line("1", "10", iva("exempt_other")), description: "Café & <té>\r\nsecond line" }],
  },
};

/** What a case is about, so the valid document is shown to hold it. */
const HOLDS: Record<string, string> = {
  "F1 simplified invoice with a customer (art. 7.2: FacturaSimplificadaArt7273 and Destinatarios)":
    "<sf:TipoFactura>F1</sf:TipoFactura>",
  "R4 corrective with FechaOperacion (the corrected invoice's operation date)":
    "<sf:FechaOperacion>31-10-2026</sf:FechaOperacion>",
  "recargo de equivalencia under ClaveRegimen 01":
    "<sf:ClaveRegimen>01</sf:ClaveRegimen><sf:CalificacionOperacion>S1</sf:CalificacionOperacion><sf:TipoImpositivo>4.00",
  "Macrodato record (ImporteTotal of 100,000,000.00 EUR or more)": "<sf:Macrodato>S</sf:Macrodato>",
};

// A newcomer's `npm test` should not need a system package: without xmllint these tests are
// skipped with a warning. `.ci/run` sets REQUIRE_XMLLINT=1 (and installs it), so in CI a
// missing xmllint fails instead of skipping.
const hasXmllint = xmllint("--version").error === undefined;
if (!hasXmllint && !process.env.REQUIRE_XMLLINT) {
  console.warn("xmllint not found: the XSD checks are skipped (apt-get install -y libxml2-utils).");
}

describe.skipIf(!hasXmllint && !process.env.REQUIRE_XMLLINT)(
  "VERI*FACTU registration XML against AEAT's XSDs",
  () => {
    it("xmllint is installed (CI installs libxml2-utils)", () => {
      const result = xmllint("--version");
      expect(result.error, "install it: apt-get install -y libxml2-utils").toBeUndefined();
      expect(result.stderr).toMatch(/libxml/);
    });

    Object.entries(CASES).forEach(([name, spec], i) => {
      it(`${name}: the RegFactuSistemaFacturacion document is valid`, async () => {
        const record = await registrationRecord(esInvoice(spec), {
          // Every other case is chained, so both Encadenamiento forms are validated.
          previous: i % 2 === 1 ? PREVIOUS : null,
          generatedAt: GENERATED_AT,
          ...(spec.corrects ? { corrected } : {}),
        });
        const xml = registrationXml(record);
        expect(xml).toContain(HOLDS[name] ?? "");
        if (name.startsWith("F1 simplified")) expect(xml).toContain("<sf:FacturaSimplificadaArt7273>S<");
        const result = validate(name.replace(/\W+/g, "-"), xml);
        expect(result, result.output).toEqual({ code: 0, output: expect.stringContaining("validates") });
      });
    });

    it("a request of several chained records (what the AEAT client sends) is valid", async () => {
      const records = [];
      let previous: typeof PREVIOUS | null = null;
      for (const spec of Object.values(CASES)) {
        const record = await registrationRecord(esInvoice(spec), {
          previous,
          generatedAt: GENERATED_AT,
          ...(spec.corrects ? { corrected } : {}),
        });
        records.push(record);
        previous = { IDFactura: record.IDFactura, Huella: record.Huella };
      }
      const issuer = { name: records[0]!.NombreRazonEmisor, nif: records[0]!.IDFactura.IDEmisorFactura };
      const result = validate("batch", XML_DECLARATION + regFactuXml(issuer, records));
      expect(result, result.output).toEqual({ code: 0, output: expect.stringContaining("validates") });
    });

    describe("subsanaciones, cancellations and the request's Cabecera", () => {
      const spec = CASES["F1 with IVA, IRPF and recargo"]!;
      const other = CASES["F2 simplified without customer"]!;
      // The chain link the sealer (seal.ts) gives the next record.
      const link = (r: ChainRecord) => ({ IDFactura: recordId(r), Huella: r.Huella });
      const issuerOf = (r: RegistroAlta) => ({ name: r.NombreRazonEmisor, nif: r.IDFactura.IDEmisorFactura });
      const expectValid = (name: string, xml: string) => {
        const result = validate(name, xml);
        expect(result, result.output).toEqual({ code: 0, output: expect.stringContaining("validates") });
      };

      /** The invoice's first registration, then a subsanación of it with the flags resubmit.ts sets. */
      async function subsanacion(flags: Pick<RegistroAlta, "Subsanacion" | "RechazoPrevio">) {
        const first = await sealRecord(recordBody(esInvoice(spec)), {
          previous: null,
          generatedAt: GENERATED_AT,
        });
        const again = await sealRecord(
          { ...recordBody(esInvoice(spec)), ...flags },
          { previous: link(first), generatedAt: GENERATED_AT + 60_000 },
        );
        return { first, again };
      }

      it.each<[string, Pick<RegistroAlta, "Subsanacion" | "RechazoPrevio">]>([
        [
          "after a rejection (alta por rechazo): Subsanacion S, RechazoPrevio X",
          { Subsanacion: "S", RechazoPrevio: "X" },
        ],
        ["of a record accepted with errors: Subsanacion S alone", { Subsanacion: "S" }],
        [
          "after a rejected subsanación: Subsanacion S, RechazoPrevio S",
          { Subsanacion: "S", RechazoPrevio: "S" },
        ],
      ])("a subsanación %s is valid", async (name, flags) => {
        const { first, again } = await subsanacion(flags);
        const xml = registrationXml(again);
        expect(xml).toContain(
          `</sf:NombreRazonEmisor><sf:Subsanacion>S</sf:Subsanacion>` +
            (flags.RechazoPrevio ? `<sf:RechazoPrevio>${flags.RechazoPrevio}</sf:RechazoPrevio>` : "") +
            "<sf:TipoFactura>",
        );
        expect(xml).toContain(`<sf:RegistroAnterior><sf:IDEmisorFactura>${first.IDFactura.IDEmisorFactura}<`);
        expectValid(`subsanacion-${name.replace(/\W+/g, "-")}`, xml);
      });

      it("a cancellation chained after its invoice's registration is valid", async () => {
        const alta = await sealRecord(recordBody(esInvoice(spec)), {
          previous: null,
          generatedAt: GENERATED_AT,
        });
        const anulacion = await sealCancellation(cancellationBody(alta.IDFactura), {
          previous: link(alta),
          generatedAt: GENERATED_AT + 60_000,
        });
        const xml = registrationXml(anulacion);
        expect(xml).toContain("<sfLR:RegistroFactura><sf:RegistroAnulacion><sf:IDVersion>1.0<");
        expect(xml).toContain(`<sf:Huella>${alta.Huella}</sf:Huella></sf:RegistroAnterior>`);
        expect(xml).not.toContain("SinRegistroPrevio");
        // A cancellation names no issuer name of its own: the request's Cabecera says who it is.
        expectValid("anulacion", XML_DECLARATION + regFactuXml(issuerOf(alta), [anulacion]));
      });

      it("a cancellation of an invoice AEAT holds no registration of (SinRegistroPrevio S) is valid", async () => {
        const alta = await sealRecord(recordBody(esInvoice(spec)), {
          previous: null,
          generatedAt: GENERATED_AT,
        });
        const sealed = await sealCancellation(cancellationBody(alta.IDFactura), {
          previous: link(alta),
          generatedAt: GENERATED_AT + 60_000,
        });
        // submit.ts sets it at send time, outside the hash.
        const anulacion = { ...sealed, SinRegistroPrevio: "S" as const };
        const xml = XML_DECLARATION + regFactuXml(issuerOf(alta), [anulacion]);
        expect(xml).toContain(
          "</sf:FechaExpedicionFacturaAnulada></sf:IDFactura><sf:SinRegistroPrevio>S</sf:SinRegistroPrevio><sf:Encadenamiento>",
        );
        expectValid("anulacion-sin-registro-previo", xml);
      });

      it("a request of several records whose Cabecera carries Representante and RemisionVoluntaria/Incidencia S is valid", async () => {
        const records: RegistroAlta[] = [];
        let previous: ReturnType<typeof link> | null = null;
        for (const number of ["INC-0001", "INC-0002", "INC-0003"]) {
          const record = await sealRecord(recordBody(esInvoice({ ...spec, number })), {
            previous,
            generatedAt: GENERATED_AT,
          });
          records.push(record);
          previous = link(record);
        }
        const issuer = {
          ...issuerOf(records[0]!),
          representative: { name: "Asesoría Gómez & Asociados SL", nif: "A85905490" },
          incident: true,
        };
        const xml = XML_DECLARATION + regFactuXml(issuer, records);
        expect(xml).toContain(
          "</sf:ObligadoEmision><sf:Representante><sf:NombreRazon>Asesoría Gómez &amp; Asociados SL</sf:NombreRazon>" +
            "<sf:NIF>A85905490</sf:NIF></sf:Representante>" +
            "<sf:RemisionVoluntaria><sf:Incidencia>S</sf:Incidencia></sf:RemisionVoluntaria></sfLR:Cabecera>",
        );
        expectValid("cabecera-representante-incidencia", xml);
      });

      it("a mixed request (a registration and the cancellation of another invoice) is valid", async () => {
        const cancelled = await sealRecord(recordBody(esInvoice(spec)), {
          previous: null,
          generatedAt: GENERATED_AT,
        });
        const alta = await sealRecord(recordBody(esInvoice(other)), {
          previous: link(cancelled),
          generatedAt: GENERATED_AT + 1_000,
        });
        const anulacion = await sealCancellation(cancellationBody(cancelled.IDFactura), {
          previous: link(alta),
          generatedAt: GENERATED_AT + 2_000,
        });
        expect(alta.IDFactura.NumSerieFactura).not.toBe(cancelled.IDFactura.NumSerieFactura);
        const xml = XML_DECLARATION + regFactuXml(issuerOf(alta), [alta, anulacion]);
        expect(xml.indexOf("<sf:RegistroAlta>")).toBeLessThan(xml.indexOf("<sf:RegistroAnulacion>"));
        expect(xml.match(/<sfLR:RegistroFactura>/g)).toHaveLength(2);
        expectValid("mixed", xml);
      });

      it("a sealed cancellation's Huella is AEAT's anulación hash over IDEmisorFacturaAnulada…FechaHoraHusoGenRegistro", async () => {
        // AEAT's published example (test/unit/verifactu-hash.test.ts): the cancellation of
        // 12345679/G34, chained after the registration whose Huella is F7B94CFD…, at 19:20:40+01:00.
        const previous = {
          IDFactura: {
            IDEmisorFactura: "89890001K",
            NumSerieFactura: "12345679/G34",
            FechaExpedicionFactura: "01-01-2024",
          },
          Huella: "F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97",
        };
        const sealed = await sealCancellation(cancellationBody(previous.IDFactura), {
          previous,
          generatedAt: Date.parse("2024-01-01T19:20:40+01:00"),
        });
        expect(sealed.FechaHoraHusoGenRegistro).toBe("2024-01-01T19:20:40+01:00");
        expect(sealed.Huella).toBe("177547C0D57AC74748561D054A9CEC14B4C4EA23D1BEFD6F2E69E3A388F90C68");
        expect(sealed.Huella).toBe(
          await cancellationHash({
            ...sealed.IDFactura,
            Huella: previous.Huella,
            FechaHoraHusoGenRegistro: sealed.FechaHoraHusoGenRegistro,
          }),
        );
        // And it travels as hashed.
        const xml =
          XML_DECLARATION + regFactuXml({ name: "Emisor de ejemplo SL", nif: "89890001K" }, [sealed]);
        expect(xml).toContain(`<sf:TipoHuella>01</sf:TipoHuella><sf:Huella>${sealed.Huella}</sf:Huella>`);
        expectValid("anulacion-aeat-example", xml);
      });
    });

    it("a document breaking the schema is rejected (the check can fail)", async () => {
      const record = await registrationRecord(esInvoice(CASES["F1 with IVA, IRPF and recargo"]!), {
        previous: null,
        generatedAt: GENERATED_AT,
      });
      const broken = registrationXml({ ...record, TipoHuella: "02" as "01" });
      const result = validate("broken", broken);
      expect(result.code, result.output).not.toBe(0);
      expect(result.output).toMatch(/TipoHuella/);
    });
  },
);
