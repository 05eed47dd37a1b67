import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

/**
 * Offline validation of structured e-invoices with the official artefacts copied in
 * test/fixtures/einvoice (see its SOURCE.md):
 *
 * - UBL 2.1 Invoice / CreditNote: xmllint against the UBL 2.1 XSD chosen by the root element,
 *   then the EN 16931 rules (CEN 1.3.16) and the Peppol BIS Billing 3.0.21 rules, both compiled
 *   Schematron run by Saxon-HE; a rule set's verdict is read from its SVRL report (Saxon exits 0
 *   whatever the verdict).
 * - Facturae 3.2.2: xmllint against its XSD, the remote xmldsig import mapped to the local copy
 *   by the fixtures' XML catalog.
 *
 * Everything runs in Node (workerd cannot start programs) and needs xmllint (Debian
 * libxml2-utils), Java (default-jre-headless) and Saxon-HE (libsaxonhe-java). Each call starts
 * one xmllint per schema and one JVM per rule set, whatever the number of documents: Saxon's
 * batch mode compiles each stylesheet once.
 */

const FIXTURES = decodeURIComponent(new URL("../fixtures/einvoice/", import.meta.url).pathname);
const fixture = (path: string) => join(FIXTURES, path);

export const SCHEMAS = {
  invoice: fixture("ubl-2.1/xsd/maindoc/UBL-Invoice-2.1.xsd"),
  creditNote: fixture("ubl-2.1/xsd/maindoc/UBL-CreditNote-2.1.xsd"),
  facturae: fixture("facturae-3.2.2/Facturaev3_2_2.xsd"),
  facturaeCatalog: fixture("facturae-3.2.2/catalog.xml"),
} as const;

/**
 * The one schema file over the repository's 1 MiB file limit (2.4 MB) is committed gzipped
 * (`gzip -9n`) and expanded beside its siblings (git-ignored) before xmllint reads it, after its
 * bytes are checked against the blob id SOURCE.md gives for the original.
 */
const GZIPPED_SCHEMA = {
  path: fixture("ubl-2.1/xsd/common/UBL-CommonAggregateComponents-2.1.xsd"),
  blob: "53d2cef15cd2758f5b129c71029732ca7b2c3393",
};

function expandSchemas(): void {
  const { path, blob } = GZIPPED_SCHEMA;
  if (existsSync(path)) return;
  const bytes = gunzipSync(readFileSync(`${path}.gz`));
  const id = createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
  if (id !== blob)
    throw new Error(`${path}.gz does not expand to the official file (blob ${id}, not ${blob})`);
  // Written aside and renamed, so that a concurrent run never reads half a schema.
  const aside = `${path}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(aside, bytes);
  renameSync(aside, path);
}

export const RULE_SETS = {
  en16931: fixture("en16931-ubl/xslt/EN16931-UBL-validation.xslt"),
  peppol: fixture("peppol-bis-billing-3/xslt/PEPPOL-EN16931-UBL.xslt"),
} as const;

/** The versions of the artefacts in test/fixtures/einvoice. */
export const ARTEFACT_VERSIONS = {
  ubl: "UBL 2.1 OS (2013-11-04)",
  en16931: "CEN/TC 434 EN 16931 UBL validation 1.3.16",
  peppol: "Peppol BIS Billing 3.0.21 (2026-05)",
  facturae: "Facturae 3.2.2",
} as const;

/** The official example documents, by path under test/fixtures/einvoice. */
export const EXAMPLES = {
  peppol: [
    "peppol-bis-billing-3/examples/base-example.xml",
    "peppol-bis-billing-3/examples/base-creditnote-correction.xml",
    "peppol-bis-billing-3/examples/base-negative-inv-correction.xml",
    "peppol-bis-billing-3/examples/Allowance-example.xml",
    "peppol-bis-billing-3/examples/Vat-category-S.xml",
  ],
  en16931: ["en16931-ubl/examples/ubl-tc434-example1.xml", "en16931-ubl/examples/ubl-tc434-creditnote1.xml"],
  facturae: ["facturae-3.2.2/examples/invoice-vat.xml", "facturae-3.2.2/examples/credit-note.xml"],
} as const;

/** An example document as a validateDocuments input, named by its path. */
export async function readExample(path: string): Promise<Document> {
  return { name: path, xml: await readFile(fixture(path), "utf8") };
}

export const SAXON_JAR = process.env.SAXON_JAR ?? "/usr/share/java/Saxon-HE.jar";

const UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const UBL_CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const FACTURAE_NS = "http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml";

export type Document = { name: string; xml: string };
export type Kind = "ubl-invoice" | "ubl-credit-note" | "facturae" | "unknown";

/** A failed-assert or successful-report of an SVRL report. */
export type Finding = {
  /** The rule id, e.g. "BR-CO-16" or "PEPPOL-EN16931-R010". */
  id: string;
  /** "fatal" or "warning" ("fatal" when the rule has no flag). */
  flag: string;
  /** The message, e.g. "[PEPPOL-EN16931-R010]-Buyer electronic address MUST be provided". */
  text: string;
  /** XPath of the offending element. */
  location: string;
  /** The rule's XPath test. */
  test: string;
};

/** One rule set's verdict: the document passes when `fatal` is empty; warnings are advice only. */
export type RulesResult = { fatal: Finding[]; warnings: Finding[] };

export type Report = {
  name: string;
  kind: Kind;
  /** The schema check; `errors` are xmllint's messages (file name replaced by the document's name). */
  xsd: { ok: boolean; errors: string[] };
  /** UBL documents only. */
  en16931?: RulesResult;
  /** UBL documents only. */
  peppol?: RulesResult;
};

export type Options = {
  /** Run the Peppol BIS rules on the UBL documents too (default true). */
  peppol?: boolean;
};

/** What made a document fail, one line each; empty when every layer passed. */
export function problems(report: Report): string[] {
  const rules = (layer: string, result?: RulesResult) =>
    (result?.fatal ?? []).map((f) => `${layer} ${f.id}: ${f.text} at ${f.location}`);
  return [
    ...(report.xsd.ok ? [] : report.xsd.errors.map((e) => `XSD: ${e}`)),
    ...rules("EN 16931", report.en16931),
    ...rules("Peppol", report.peppol),
  ];
}

/** The document's kind, from its root element's local name and namespace. */
export function kindOf(xml: string): Kind {
  // Skip the BOM, XML declaration, comments, processing instructions and DOCTYPE.
  const body = xml.replace(/^\uFEFF?(\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*/, "");
  const start = /^<(?:([\w.-]+):)?([\w.-]+)([^>]*)>/.exec(body);
  if (!start) return "unknown";
  const [, prefix, local, attributes] = start;
  const ns = new RegExp(`\\sxmlns${prefix ? `:${prefix}` : ""}\\s*=\\s*["']([^"']*)["']`).exec(
    attributes ?? "",
  )?.[1];
  if (local === "Invoice" && ns === UBL_INVOICE_NS) return "ubl-invoice";
  if (local === "CreditNote" && ns === UBL_CREDIT_NOTE_NS) return "ubl-credit-note";
  if (local === "Facturae" && ns === FACTURAE_NS) return "facturae";
  return "unknown";
}

type Env = Record<string, string | undefined>;
type Run = { code: number | null; stdout: string; stderr: string };

/** How many times each program was started: validating many documents starts few of them. */
export const processesStarted = { xmllint: 0, java: 0 };

/** Runs a program; rejects only when it cannot be started (missing tool), not on its exit code. */
function run(file: "xmllint" | "java", args: string[], env?: Env): Promise<Run> {
  processesStarted[file]++;
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: env ? { ...process.env, ...env } : undefined },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") {
          reject(new Error(`cannot run ${file}: ${error.message}\n${stderr}`));
          return;
        }
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/**
 * One xmllint run over several files against one schema (compiled once). Its messages are
 * prefixed with the file name; "<file> validates" is the per-file verdict.
 */
async function xmllintMany(
  schema: string,
  files: string[],
  env?: Env,
): Promise<Map<string, { ok: boolean; errors: string[] }>> {
  const results = new Map(files.map((f) => [f, { ok: false, errors: [] as string[] }]));
  if (files.length === 0) return results;
  const { code, stderr } = await run("xmllint", ["--nonet", "--noout", "--schema", schema, ...files], env);
  // Exit 5: the schema did not compile; no document was validated.
  if (code === 5 || /failed to compile/.test(stderr)) {
    throw new Error(`xmllint could not compile ${schema} (exit ${code}):\n${stderr}`);
  }
  // Longest names first, so that a file whose name prefixes another's is not mistaken for it.
  const byLength = [...files].sort((a, b) => b.length - a.length);
  let current: string | undefined;
  for (const line of stderr.split("\n")) {
    if (line === "") continue;
    const file = byLength.find((f) => line.startsWith(`${f}:`) || line.startsWith(`${f} `));
    if (file) current = file;
    const result = current ? results.get(current) : undefined;
    if (!result) continue;
    if (file && line === `${file} validates`) result.ok = true;
    else if (file && line === `${file} fails to validate`) result.ok = false;
    else result.errors.push(line);
  }
  for (const result of results.values())
    if (!result.ok && result.errors.length === 0) result.errors.push("fails to validate");
  return results;
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[\da-fA-F]+);/g, (_, entity: string) => {
    switch (entity) {
      case "lt":
        return "<";
      case "gt":
        return ">";
      case "amp":
        return "&";
      case "quot":
        return '"';
      case "apos":
        return "'";
      default:
        return String.fromCodePoint(
          entity[1] === "x" ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1)),
        );
    }
  });
}

/** The failed-asserts and successful-reports of an SVRL report, fatal (or unflagged) apart from warnings. */
export function parseSvrl(svrl: string): RulesResult {
  const result: RulesResult = { fatal: [], warnings: [] };
  const pattern =
    /<(?:[\w.-]+:)?(failed-assert|successful-report)\b((?:[^>"']|"[^"]*"|'[^']*')*?)(\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?\1\s*>)/g;
  for (const match of svrl.matchAll(pattern)) {
    const attributes: Record<string, string> = {};
    for (const [, name, dq, sq] of (match[2] ?? "").matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      attributes[name!] = unescapeXml(dq ?? sq ?? "");
    }
    const text = /<(?:[\w.-]+:)?text\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?text\s*>/.exec(match[4] ?? "")?.[1];
    const finding: Finding = {
      id: attributes.id ?? "",
      flag: attributes.flag ?? "fatal",
      text: unescapeXml(text ?? "")
        .replace(/\s+/g, " ")
        .trim(),
      location: attributes.location ?? "",
      test: attributes.test ?? "",
    };
    (finding.flag === "fatal" ? result.fatal : result.warnings).push(finding);
  }
  return result;
}

/**
 * One Saxon batch run of a rule set over every file of `indir` (one JVM, the stylesheet compiled
 * once), each SVRL parsed. A document Saxon could not read (not well-formed) gets no SVRL: it
 * is reported as one fatal finding with id "SAXON" carrying Saxon's messages about it.
 */
async function runRules(xslt: string, indir: string, outdir: string, files: string[]) {
  await mkdir(outdir, { recursive: true });
  const { code, stderr } = await run("java", [
    "-cp",
    SAXON_JAR,
    "net.sf.saxon.Transform",
    `-s:${indir}`,
    `-xsl:${xslt}`,
    `-o:${outdir}`,
  ]);
  if (code !== 0 && !/transformations? failed/.test(stderr)) {
    // Not a per-document failure: the JVM, the jar or the stylesheet.
    throw new Error(`Saxon failed on ${xslt} (exit ${code}):\n${stderr}`);
  }
  const results = new Map<string, RulesResult>();
  for (const file of files) {
    const svrl = await readFile(join(outdir, file), "utf8").catch(() => undefined);
    if (svrl === undefined) {
      const messages = stderr
        .split("\n")
        .filter((line) => line.includes(file))
        .join(" ")
        .trim();
      results.set(file, {
        fatal: [{ id: "SAXON", flag: "fatal", text: messages || "no SVRL report", location: "", test: "" }],
        warnings: [],
      });
    } else {
      results.set(file, parseSvrl(svrl));
    }
  }
  return results;
}

/**
 * Validates the documents, each through the layers its kind needs: UBL → UBL 2.1 XSD, EN 16931
 * rules, Peppol rules; Facturae → Facturae 3.2.2 XSD. An unrecognised root gives a failed XSD
 * check. Rejects when a tool is missing or a schema / stylesheet cannot be loaded.
 */
export async function validateDocuments(docs: Document[], options: Options = {}): Promise<Report[]> {
  expandSchemas();
  const dir = await mkdtemp(join(tmpdir(), "einvoice-validate-"));
  try {
    // Saxon's batch mode reads every file of its input folder: UBL documents get one of their own.
    const ublDir = join(dir, "ubl");
    const otherDir = join(dir, "other");
    await mkdir(ublDir);
    await mkdir(otherDir);
    const entries = await Promise.all(
      docs.map(async (doc, i) => {
        const kind = kindOf(doc.xml);
        const file = `${String(i).padStart(4, "0")}-${doc.name.replace(/[^\w.-]+/g, "_").slice(-80)}.xml`;
        const path = join(kind.startsWith("ubl") ? ublDir : otherDir, file);
        await writeFile(path, doc.xml, "utf8");
        return { doc, kind, file, path };
      }),
    );
    const pathsOf = (kind: Kind) => entries.filter((e) => e.kind === kind).map((e) => e.path);
    const ublFiles = entries.filter((e) => e.kind.startsWith("ubl")).map((e) => e.file);
    const rules = (xslt: string, name: string) =>
      ublFiles.length === 0
        ? Promise.resolve(new Map<string, RulesResult>())
        : runRules(xslt, ublDir, join(dir, name), ublFiles);

    const [invoices, creditNotes, facturae, en16931, peppol] = await Promise.all([
      xmllintMany(SCHEMAS.invoice, pathsOf("ubl-invoice")),
      xmllintMany(SCHEMAS.creditNote, pathsOf("ubl-credit-note")),
      // XML_CATALOG_FILES replaces the system catalogs; the catalog's relative uris resolve
      // against the catalog file.
      xmllintMany(SCHEMAS.facturae, pathsOf("facturae"), { XML_CATALOG_FILES: SCHEMAS.facturaeCatalog }),
      rules(RULE_SETS.en16931, "svrl-en16931"),
      options.peppol === false ? Promise.resolve(undefined) : rules(RULE_SETS.peppol, "svrl-peppol"),
    ]);

    return entries.map(({ doc, kind, file, path }): Report => {
      const xsdResults = { "ubl-invoice": invoices, "ubl-credit-note": creditNotes, facturae }[
        kind as Exclude<Kind, "unknown">
      ];
      const xsd = xsdResults?.get(path) ?? {
        ok: false,
        errors: [
          "unrecognised document: the root is none of UBL 2.1 Invoice, UBL 2.1 CreditNote, Facturae 3.2.2",
        ],
      };
      const report: Report = {
        name: doc.name,
        kind,
        xsd: { ok: xsd.ok, errors: xsd.errors.map((e) => e.split(path).join(doc.name)) },
      };
      if (kind.startsWith("ubl")) {
        report.en16931 = en16931.get(file);
        if (peppol) report.peppol = peppol.get(file);
      }
      return report;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export type ToolVersions = { java: string; saxon: string; xmllint: string };

/** The versions of the programs the validators run ("missing" for one that is not installed). */
export function toolVersions(): ToolVersions {
  const firstLine = (file: string, args: string[]) => {
    const result = spawnSync(file, args, { encoding: "utf8" });
    if (result.error) return "missing";
    return `${result.stderr}${result.stdout}`.split("\n")[0]!.trim();
  };
  return {
    java: firstLine("java", ["-version"]),
    saxon: existsSync(SAXON_JAR)
      ? firstLine("java", ["-cp", SAXON_JAR, "net.sf.saxon.Version"])
      : `missing (${SAXON_JAR})`,
    xmllint: firstLine("xmllint", ["--version"]),
  };
}

/** The Debian packages to install for the validators to run; empty when all are there. */
export function missingPackages(): string[] {
  const has = (file: string, args: string[]) =>
    spawnSync(file, args, { encoding: "utf8" }).error === undefined;
  return [
    ...(has("xmllint", ["--version"]) ? [] : ["libxml2-utils"]),
    ...(has("java", ["-version"]) ? [] : ["default-jre-headless"]),
    ...(existsSync(SAXON_JAR) ? [] : ["libsaxonhe-java"]),
  ];
}
