import { afterAll, describe, expect, it } from "vitest";
import { GAP } from "../../src/pdf/header";
import { LINE_COLUMNS } from "../../src/pdf/lines";
import { PAGE } from "../../src/pdf/sheet";
import {
  CORRECTIVE,
  EXEMPT,
  esInput,
  GLOBAL,
  LONG_WORDS,
  MULTISCRIPT,
  SCRIPTS,
  SPANISH,
} from "../fixtures/pdf-invoices";
import { customer, iva, line } from "../fixtures/verifactu-invoices";
import { cleanUp, gray, pdfInfo, pdfOf, pdfText, SKIP, wordBoxes } from "./pdf-tools";

/**
 * Where the rendered invoice puts things, read back with poppler: pages and their numbers, text
 * inside the margins and its column, nothing drawn over anything else, whatever the input.
 */

afterAll(cleanUp);

describe.skipIf(SKIP)("invoice PDF layout read back with poppler", () => {
  it("200 lines flow over pages, each page repeats the table header and says 'Página n/N'", async () => {
    const input = esInput({
      number: "INV-0200",
      lines: Array.from({ length: 200 }, (_, i) => ({
        ...line("1", "1.5", iva("general")),
        description: `Artículo número ${i + 1} del pedido`,
      })),
    });
    const path = await pdfOf(input);
    const pages = Number(pdfInfo(path).Pages);
    expect(pages).toBeGreaterThan(2);
    for (let page = 1; page <= pages; page++) {
      const text = pdfText(path, { first: page, last: page });
      expect(text, `page ${page}`).toContain(`Página ${page}/${pages}`);
      if (page < pages)
        expect(text, `page ${page}`).toContain("Descripción Cantidad Precio unitario Impuestos Importe");
    }
    const all = pdfText(path);
    let at = 0;
    for (let i = 1; i <= 200; i++) {
      const next = all.indexOf(`Artículo número ${i} del pedido`, at);
      expect(next, `line ${i}`).toBeGreaterThan(at - 1);
      at = next;
    }
    expect(all).toContain("Total factura 363,00 €");
  });

  it("200 lines of 1,000-character words show every character, in order", async () => {
    const path = await pdfOf(LONG_WORDS);
    const text = pdfText(path).replace(/ /g, "");
    let at = 0;
    for (const [i, line] of LONG_WORDS.invoice.lines.entries()) {
      const next = text.indexOf(line.description, at);
      expect(next, `line ${i + 1}`).toBeGreaterThanOrEqual(at);
      at = next + line.description.length;
    }
  });

  it("no text leaves the margins or overlaps other text, however long the names and descriptions", async () => {
    const long = "Descripción muy larga ".repeat(45).slice(0, 1000);
    const unbroken = "x".repeat(1000);
    const wide = esInput(
      {
        number: "INV-0999",
        lines: [
          { ...line("1", "1", iva("general")), description: long },
          { ...line("1", "1", iva("general")), description: unbroken },
          line("8", "999999999999.99", iva("general")),
        ],
      },
      { notes: `${"Nota ".repeat(300)}\n${"y".repeat(1500)}` },
    );
    for (const input of [SPANISH, EXEMPT, CORRECTIVE, GLOBAL, MULTISCRIPT, wide]) {
      const words = wordBoxes(await pdfOf(input));
      expect(words.length, String(input.invoice.number)).toBeGreaterThan(20);
      for (const w of words) {
        expect(w.xMin, `${input.invoice.number} ${w.word}`).toBeGreaterThanOrEqual(PAGE.margin - 0.5);
        expect(w.xMax, `${input.invoice.number} ${w.word}`).toBeLessThanOrEqual(
          PAGE.width - PAGE.margin + 0.5,
        );
        expect(w.yMin, `${input.invoice.number} ${w.word}`).toBeGreaterThanOrEqual(PAGE.margin - 0.5);
        // The footer sits in the bottom margin's upper half (src/pdf/sheet.ts); nothing goes lower.
        expect(w.yMax, `${input.invoice.number} ${w.word}`).toBeLessThanOrEqual(
          PAGE.height - PAGE.margin / 2,
        );
      }
      const overlaps = words.flatMap((a, i) =>
        words
          .slice(i + 1)
          .filter(
            (b) =>
              a.page === b.page &&
              Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin) > 0.5 &&
              Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin) > 0.5,
          )
          .map((b) => `${a.word} / ${b.word}`),
      );
      expect(overlaps, String(input.invoice.number)).toEqual([]);
    }
    const text = pdfText(await pdfOf(wide)).replace(/ /g, "");
    expect(text).toContain(long.replace(/ /g, ""));
    expect(text).toContain(unbroken);
  });

  it("names in any script stay in their column: the gutters beside the parties and descriptions hold no ink", async () => {
    const cjk = `${SCRIPTS.cjk} ${SCRIPTS.emoji} `.repeat(4);
    const crowded = esInput(
      {
        number: "INV-0046",
        customer: customer(`${SCRIPTS.arabic} ${cjk}`.slice(0, 256), {
          country: "ES",
          type: "es_nif",
          value: "12345678Z",
        }),
        lines: [cjk, `${SCRIPTS.hebrew} ${SCRIPTS.arabic} `.repeat(6), "x".repeat(300)].map(
          (description) => ({
            ...line("1", "1", iva("general")),
            description,
          }),
        ),
      },
      { issuer: { ...MULTISCRIPT.invoice.issuer, name: `${SCRIPTS.cyrillic} ${cjk}`.slice(0, 256) } },
    );
    for (const input of [MULTISCRIPT, crowded]) {
      const path = await pdfOf(input);
      const words = wordBoxes(path).filter((w) => w.page === 1);
      const below = (word: string, y = 0) => words.find((w) => w.word === word && w.yMin > y);
      const img = gray(path, 150);
      const px = (pt: number) => Math.round((pt * img.dpi) / 72);
      const ink = (x1: number, x2: number, y1: number, y2: number) => {
        let dark = 0;
        for (let y = px(y1); y < px(y2); y++)
          for (let x = px(x1); x <= px(x2); x++) dark += img.dark(x, y) ? 1 : 0;
        return dark;
      };
      const parties = below("EMISOR")!;
      const middle = PAGE.margin + (PAGE.width - 2 * PAGE.margin) / 2;
      expect(
        ink(middle - GAP / 2 + 2, middle + GAP / 2 - 2, parties.yMin, below("Importe", parties.yMax)!.yMin),
      ).toBe(0);
      const table = below("Descripción")!;
      const edge = PAGE.margin + LINE_COLUMNS[0]!.width;
      const tableEnd = (below("Impuesto", table.yMax) ?? below("Página"))!;
      expect(ink(edge - 3, edge + 3, table.yMax, tableEnd.yMin)).toBe(0);
    }
  });
});
