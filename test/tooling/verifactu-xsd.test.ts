import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RegistroAlta } from "../../src/contracts/verifactu-record";
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
