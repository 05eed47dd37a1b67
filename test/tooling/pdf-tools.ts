import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { type PdfInput, renderInvoicePdf } from "../../src/pdf/render";
import { FONTS } from "./pdf-fonts";

/**
 * poppler (pdftotext, pdftoppm, pdfinfo, pdffonts) and zbar (zbarimg) on rendered invoices,
 * and a QR reader of our own for what zbar does not report: the symbol's printed size and its
 * error correction level, read from the pixels of a 300 dpi rendering.
 */

export const TOOLS = ["pdftotext", "pdftoppm", "pdfinfo", "pdffonts", "zbarimg"] as const;

export function missingTools(): string[] {
  return TOOLS.filter((tool) => spawnSync(tool, ["-v"], { encoding: "utf8" }).error !== undefined);
}

// As for xmllint (verifactu-xsd.test.ts): a newcomer's `npm test` needs no system package, so
// without the tools the read-back tests are skipped with a warning; CI sets REQUIRE_PDF_TOOLS=1
// (and installs poppler-utils and zbar-tools), so there a missing tool fails instead.
const missing = missingTools();

/** Whether the tests that need the tools skip: they are missing and not required. */
export const SKIP = missing.length > 0 && !process.env.REQUIRE_PDF_TOOLS;
if (SKIP) {
  console.warn(
    `${missing.join(", ")} not found: the PDF checks are skipped (apt-get install -y poppler-utils zbar-tools).`,
  );
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.error || result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")}: ${result.error ?? result.stderr}`);
  }
  return result.stdout;
}

let dir: string | undefined;
let count = 0;

/** Writes the PDF to a temp file (removed by `cleanUp`) and returns its path. */
export function save(pdf: Uint8Array): string {
  dir ??= mkdtempSync(`${tmpdir()}/invoice-pdf-`);
  const path = `${dir}/${++count}.pdf`;
  writeFileSync(path, pdf);
  return path;
}

export function cleanUp(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

const rendered = new Map<PdfInput, Promise<string>>();

/** The PDF of an input with the DejaVu fonts, rendered once per test file, as a temp file's path. */
export function pdfOf(input: PdfInput): Promise<string> {
  if (!rendered.has(input)) rendered.set(input, renderInvoicePdf(input, FONTS).then(save));
  return rendered.get(input)!;
}

// Bidi controls pdftotext puts around right-to-left text; the no-break spaces the renderer puts
// between an amount and its currency.
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text of a page range, whitespace collapsed to single spaces, so wrapped lines read on. */
export function pdfText(path: string, pages?: { first: number; last: number }): string {
  const range = pages ? ["-f", String(pages.first), "-l", String(pages.last)] : [];
  return run("pdftotext", [...range, path, "-"])
    .replace(BIDI_CONTROLS, "")
    .replace(/[\s\u00a0]+/g, " ");
}

/**
 * The page as laid out (`pdftotext -layout`): one string per printed line, runs of spaces
 * collapsed, so that a table row reads as one line. pdftotext sometimes drops the narrow space
 * between a lone digit and "%" ("5%"): rates are normalised to "5 %".
 */
export function layoutText(path: string): string {
  return run("pdftotext", ["-layout", path, "-"])
    .replace(BIDI_CONTROLS, "")
    .split("\n")
    .map((l) =>
      l
        .replace(/[ \u00a0]+/g, " ")
        .replace(/(\d)%/g, "$1 %")
        .trim(),
    )
    .filter((l) => l !== "")
    .join("\n");
}

/** Every word with its box in points (`pdftotext -bbox`), page by page. */
export function wordBoxes(
  path: string,
): { page: number; word: string; xMin: number; xMax: number; yMin: number; yMax: number }[] {
  const html = run("pdftotext", ["-bbox", path, "-"]);
  const words: ReturnType<typeof wordBoxes> = [];
  html
    .split("<page ")
    .slice(1)
    .forEach((page, i) => {
      for (const m of page.matchAll(
        /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
      )) {
        words.push({ page: i + 1, word: m[5]!, xMin: +m[1]!, yMin: +m[2]!, xMax: +m[3]!, yMax: +m[4]! });
      }
    });
  return words;
}

/** `pdfinfo` as a map: Title, Producer, CreationDate, Pages… */
export function pdfInfo(path: string): Record<string, string> {
  const info: Record<string, string> = {};
  for (const line of run("pdfinfo", ["-isodates", path]).split("\n")) {
    const m = /^([^:]+):\s*(.*)$/.exec(line);
    if (m) info[m[1]!] = m[2]!;
  }
  return info;
}

/** `pdffonts`' rows: name, type, embedded, subset, has ToUnicode. */
export function pdfFonts(path: string): { name: string; emb: string; sub: string; uni: string }[] {
  return run("pdffonts", [path])
    .split("\n")
    .slice(2)
    .filter((l) => l.trim() !== "")
    .map((l) => {
      const cols = l.trim().split(/\s+/);
      const [emb, sub, uni] = cols.slice(-5, -2);
      return { name: cols[0]!, emb: emb!, sub: sub!, uni: uni! };
    });
}

/** Renders page 1 as PNG at `dpi` (`pdftoppm -png`); returns the image's path. */
export function png(path: string, dpi = 300): string {
  run("pdftoppm", ["-r", String(dpi), "-png", "-f", "1", "-l", "1", "-singlefile", path, path]);
  return `${path}.png`;
}

/** What zbar reads from an image, QR codes only; null when it finds none (exit code 4). */
export function zbar(image: string): string | null {
  const result = spawnSync("zbarimg", ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", image], {
    encoding: "utf8",
  });
  if (result.status === 4) return null;
  if (result.error || result.status !== 0) throw new Error(`zbarimg: ${result.error ?? result.stderr}`);
  return result.stdout.replace(/\n$/, "");
}

/** A greyscale rendering of page 1 (`pdftoppm -gray`, a binary PGM), one byte a pixel. */
export interface Gray {
  width: number;
  height: number;
  dpi: number;
  dark(x: number, y: number): boolean;
}

export function gray(path: string, dpi = 300): Gray {
  run("pdftoppm", ["-r", String(dpi), "-gray", "-f", "1", "-l", "1", "-singlefile", path, path]);
  const bytes = readFileSync(`${path}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(new TextDecoder("latin1").decode(bytes.subarray(0, 50)));
  if (!header) throw new Error("not a binary PGM");
  const [width, height, offset] = [Number(header[1]), Number(header[2]), header[0].length];
  return {
    width,
    height,
    dpi,
    dark: (x, y) => bytes[offset + Math.round(y) * width + Math.round(x)]! < 128,
  };
}
