import { afterAll, describe, expect, it } from "vitest";
import { renderDeclarationPdf } from "../../src/pdf/declaration";
import { type DeclarationInput, declarationDocument } from "../../src/verifactu/declaration-document";
import { SOFTWARE } from "../../src/verifactu/software";
import { FONTS } from "./pdf-fonts";
import { cleanUp, pdfInfo, pdfText, SKIP, save } from "./pdf-tools";

/** The declaración responsable's PDF read back with poppler, as a person or a program reads it. */

afterAll(cleanUp);

const INPUT: DeclarationInput = {
  software: {
    ...SOFTWARE,
    NombreRazon: "Productora de Pruebas SL",
    NIF: "B87654323",
    IdSistemaInformatico: "IT",
  },
  address: "Calle de las Pruebas 1, 28001 Madrid, España",
  place: "Madrid, España",
  date: "2026-01-15",
  placeholder: false,
};

const render = async (input: DeclarationInput) =>
  save(await renderDeclarationPdf(declarationDocument(input), FONTS));

describe.skipIf(SKIP)("the declaración responsable as a PDF", () => {
  it("is a PDF whose text has the title, the producer NIF and the system id, items a) to l) in order", async () => {
    const path = await render(INPUT);
    const text = pdfText(path).replace(/\s+/g, " ");
    expect(text).toContain("DECLARACIÓN RESPONSABLE DEL SISTEMA INFORMÁTICO DE FACTURACIÓN");
    expect(text).toContain("B87654323");
    expect(text).toMatch(/la letra a\): IT /);
    const letters = [...text.matchAll(/ ([a-l])\) (?=[A-ZÍ])/g)].map((m) => m[1]).join("");
    expect(letters).toBe("abcdefghijkl");
    expect(text).toContain("15/01/2026, Madrid, España");
    expect(pdfInfo(path).Title).toBe("DECLARACIÓN RESPONSABLE DEL SISTEMA INFORMÁTICO DE FACTURACIÓN");
  });

  it("the same declaration gives the same bytes", async () => {
    const a = await renderDeclarationPdf(declarationDocument(INPUT), FONTS);
    const b = await renderDeclarationPdf(declarationDocument(INPUT), FONTS);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it("the development placeholder is marked on every page", async () => {
    const path = await render({ ...INPUT, software: SOFTWARE, placeholder: true, date: "" });
    expect(pdfText(path)).toContain("DEVELOPMENT PLACEHOLDER");
  });
});
