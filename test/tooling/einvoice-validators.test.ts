import { beforeAll, describe, expect, it } from "vitest";
import {
  ARTEFACT_VERSIONS,
  type Document,
  EXAMPLES,
  kindOf,
  missingPackages,
  problems,
  processesStarted,
  type Report,
  readExample,
  toolVersions,
  validateDocuments,
} from "./einvoice-validators";

/**
 * The e-invoice validators of einvoice-validators.ts (UBL 2.1 XSD + EN 16931 + Peppol BIS 3
 * rules; Facturae 3.2.2 XSD) on the official examples, which must pass, and on copies broken
 * in one place, which each layer must catch.
 */

// As for xmllint (verifactu-xsd.test.ts): a newcomer's `npm test` needs no system package, so
// without the tools these tests are skipped with a warning. `.ci/run` sets REQUIRE_SAXON=1 (and
// installs libxml2-utils, libsaxonhe-java and default-jre-headless), so in CI a missing tool
// fails instead of skipping.
const missing = missingPackages();
const required = Boolean(process.env.REQUIRE_SAXON);
if (missing.length > 0 && !required) {
  console.warn(
    `The e-invoice validator tests are skipped: apt-get install -y ${missing.join(" ")} (REQUIRE_SAXON=1 makes them fail).`,
  );
}

/** Replaces exactly one occurrence of `pattern`, so that an edit cannot silently miss. */
function edit(doc: Document, name: string, pattern: RegExp, replacement: string): Document {
  expect(doc.xml.match(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`)) ?? []).toHaveLength(
    1,
  );
  return { name, xml: doc.xml.replace(pattern, replacement) };
}

const ids = (findings?: { id: string }[]) => (findings ?? []).map((f) => f.id);

describe.skipIf(missing.length > 0 && !required)("e-invoice validators (offline)", () => {
  const reports = new Map<string, Report>();
  const report = (name: string) => {
    const found = reports.get(name);
    if (!found) throw new Error(`no report for ${name}`);
    return found;
  };
  let started: { xmllint: number; java: number };
  let documents: number;

  // Every document of this file is validated in one call, as a test of many generated
  // documents would: one JVM per rule set in all.
  beforeAll(async () => {
    console.log("e-invoice validators:", { ...toolVersions(), ...ARTEFACT_VERSIONS });
    if (missing.length > 0) return; // the first test says what to install
    const peppol = await Promise.all(EXAMPLES.peppol.map(readExample));
    const en16931 = await Promise.all(EXAMPLES.en16931.map(readExample));
    const facturae = await Promise.all(EXAMPLES.facturae.map(readExample));
    const base = peppol[0]!;
    const docs: Document[] = [
      ...peppol,
      ...en16931,
      ...facturae,
      edit(
        base,
        "buyer without EndpointID",
        /(<cac:AccountingCustomerParty>\s*<cac:Party>\s*)<cbc:EndpointID schemeID="0002">FR23342<\/cbc:EndpointID>\s*/,
        "$1",
      ),
      edit(
        base,
        "wrong PayableAmount",
        /<cbc:PayableAmount currencyID="EUR">1656.25</,
        '<cbc:PayableAmount currencyID="EUR">1000.00<',
      ),
      edit(
        base,
        "misspelt IssueDate",
        /<cbc:IssueDate>2017-11-13<\/cbc:IssueDate>/,
        "<cbc:IssueDat>2017-11-13</cbc:IssueDat>",
      ),
      edit(facturae[0]!, "Facturae Modality X", /<Modality>I<\/Modality>/, "<Modality>X</Modality>"),
      edit(
        facturae[0]!,
        "Facturae without TotalGrossAmount",
        /<TotalGrossAmount>4202.00<\/TotalGrossAmount>\s*/,
        "",
      ),
      { name: "truncated UBL invoice", xml: base.xml.slice(0, 2000) },
      { name: "not an e-invoice", xml: '<?xml version="1.0"?>\n<Invoice><ID>1</ID></Invoice>' },
    ];
    documents = docs.length;
    const before = { ...processesStarted };
    const t0 = performance.now();
    for (const r of await validateDocuments(docs)) reports.set(r.name, r);
    console.log(`validated ${docs.length} documents in ${Math.round(performance.now() - t0)} ms`);
    started = {
      xmllint: processesStarted.xmllint - before.xmllint,
      java: processesStarted.java - before.java,
    };
  }, 180_000);

  it("xmllint, Java and Saxon-HE are installed (CI installs them)", () => {
    expect(missing, `install them: apt-get install -y ${missing.join(" ")}`).toEqual([]);
    const versions = toolVersions();
    expect(versions.java).toMatch(/version/);
    expect(versions.saxon).toMatch(/^SAXON-HE /i);
    expect(versions.xmllint).toMatch(/libxml/);
  });

  it("many documents cost one xmllint per schema and one JVM per rule set", () => {
    expect(documents).toBeGreaterThan(10);
    expect(started).toEqual({ xmllint: 3, java: 2 });
  });

  it("tells the kinds apart by root element and namespace", () => {
    expect(report(EXAMPLES.peppol[0]).kind).toBe("ubl-invoice");
    expect(report(EXAMPLES.peppol[1]).kind).toBe("ubl-credit-note");
    expect(report(EXAMPLES.facturae[0]).kind).toBe("facturae");
    expect(report("not an e-invoice").kind).toBe("unknown");
    expect(kindOf('\uFEFF<?xml version="1.0"?>\n<!-- c --><fe:Facturae xmlns:fe="urn:other"/>')).toBe(
      "unknown",
    );
  });

  describe("the official examples pass every layer they claim", () => {
    it.each(EXAMPLES.peppol)("Peppol example %s: UBL XSD, EN 16931 and Peppol, 0 fatal", (name) => {
      const r = report(name);
      expect(problems(r)).toEqual([]);
      expect(r.xsd).toEqual({ ok: true, errors: [] });
      expect(r.en16931?.fatal).toEqual([]);
      expect(r.peppol?.fatal).toEqual([]);
    });

    it.each(EXAMPLES.facturae)("Facturae example %s: Facturae 3.2.2 XSD", (name) => {
      const r = report(name);
      expect(r).toEqual({ name, kind: "facturae", xsd: { ok: true, errors: [] } });
    });

    it.each(EXAMPLES.en16931)(
      "EN 16931 example %s: UBL XSD and EN 16931 pass, Peppol rejects it (no Peppol identifiers)",
      (name) => {
        const r = report(name);
        expect(r.xsd.ok, r.xsd.errors.join("\n")).toBe(true);
        expect(r.en16931?.fatal).toEqual([]);
        expect(ids(r.peppol?.fatal)).toContain("PEPPOL-EN16931-R004");
      },
    );

    it("warnings are reported apart and do not fail a document", () => {
      const r = report(EXAMPLES.en16931[1]);
      expect(r.peppol?.warnings.length).toBeGreaterThan(0);
      for (const w of r.peppol?.warnings ?? []) expect(w.flag).toBe("warning");
      expect(problems(report(EXAMPLES.en16931[1])).join("\n")).not.toMatch(/COMMON-R044/);
    });
  });

  describe("the validators catch broken documents", () => {
    it("a buyer without EndpointID fails PEPPOL-EN16931-R010", () => {
      const r = report("buyer without EndpointID");
      expect(r.xsd.ok).toBe(true);
      expect(r.en16931?.fatal).toEqual([]);
      expect(ids(r.peppol?.fatal)).toEqual(["PEPPOL-EN16931-R010"]);
      expect(r.peppol?.fatal[0]).toMatchObject({
        flag: "fatal",
        text: "[PEPPOL-EN16931-R010]-Buyer electronic address MUST be provided",
        location: expect.stringMatching(/AccountingCustomerParty.*\/\*:Party/),
      });
    });

    it("a wrong PayableAmount fails BR-CO-16", () => {
      const r = report("wrong PayableAmount");
      expect(r.xsd.ok).toBe(true);
      expect(ids(r.en16931?.fatal)).toEqual(["BR-CO-16"]);
      expect(r.en16931?.fatal[0]?.text).toMatch(/^\[BR-CO-16\]/);
      // Peppol does not repeat the EN 16931 rules: only the EN 16931 layer catches it.
      expect(r.peppol?.fatal).toEqual([]);
    });

    it("a misspelt IssueDate fails the UBL XSD", () => {
      const r = report("misspelt IssueDate");
      expect(r.xsd.ok).toBe(false);
      expect(r.xsd.errors.join("\n")).toMatch(
        /^misspelt IssueDate:8: element IssueDat: Schemas validity error : Element '\{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\}IssueDat': This element is not expected/,
      );
      // The rules see it only as a missing issue date.
      expect(ids(r.en16931?.fatal)).toEqual(["BR-03"]);
    });

    it("a Facturae Modality X fails its XSD", () => {
      const r = report("Facturae Modality X");
      expect(r.xsd.ok).toBe(false);
      expect(r.xsd.errors).toEqual([
        "Facturae Modality X:5: element Modality: Schemas validity error : Element 'Modality': [facet 'enumeration'] The value 'X' is not an element of the set {'I', 'L'}.",
      ]);
      expect(r.en16931).toBeUndefined();
    });

    it("a Facturae without TotalGrossAmount fails its XSD", () => {
      const r = report("Facturae without TotalGrossAmount");
      expect(r.xsd.ok).toBe(false);
      expect(r.xsd.errors.join("\n")).toMatch(
        /Element 'TotalGrossAmountBeforeTaxes': This element is not expected. Expected is \( TotalGrossAmount \)/,
      );
    });

    it("a document that is not well-formed fails the XSD and every rule set", () => {
      const r = report("truncated UBL invoice");
      expect(r.kind).toBe("ubl-invoice");
      expect(r.xsd.ok).toBe(false);
      expect(r.xsd.errors.join("\n")).toMatch(/parser error/);
      expect(ids(r.en16931?.fatal)).toEqual(["SAXON"]);
      expect(ids(r.peppol?.fatal)).toEqual(["SAXON"]);
    });

    it("a document of no known kind fails", () => {
      const r = report("not an e-invoice");
      expect(r.xsd.ok).toBe(false);
      expect(problems(r)).toEqual([expect.stringMatching(/^XSD: unrecognised document/)]);
    });
  });
});
