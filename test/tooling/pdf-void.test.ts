import { afterAll, describe, expect, it } from "vitest";
import type { PdfInput } from "../../src/pdf/render";
import { GLOBAL, globalInput, item, SPANISH } from "../fixtures/pdf-invoices";
import { cleanUp, pdfInfo, pdfOf, pdfText, png, SKIP, zbar } from "./pdf-tools";

/**
 * A void invoice's PDF (lifecycle.md): rendered again with a visible "ANULADA / VOID" mark
 * across every page, the invoice underneath still legible and its QR still readable.
 */

afterAll(cleanUp);

const voided = (input: PdfInput): PdfInput => ({
  ...input,
  invoice: {
    ...input.invoice,
    status: "void",
    voided_at: "2026-11-25T10:00:00.000Z",
    void_reason: "Issued by mistake",
  },
});

const VOID_SPANISH = voided(SPANISH);
const LONG = voided(
  globalInput(
    Array.from({ length: 80 }, (_, i) =>
      item(`Item ${i + 1}`, "1", "10", { name: "GST", rate: "10%", effect: "added" }),
    ),
  ),
);

describe.skipIf(SKIP)("a void invoice's PDF", () => {
  it("a void invoice's PDF carries the ANULADA / VOID mark; an issued one does not", async () => {
    expect(pdfText(await pdfOf(VOID_SPANISH))).toContain("ANULADA / VOID");
    expect(pdfText(await pdfOf(voided(GLOBAL)))).toContain("ANULADA / VOID");
    expect(pdfText(await pdfOf(SPANISH))).not.toContain("ANULADA");
  });

  it("the mark is on every page of a long void invoice", async () => {
    const path = await pdfOf(LONG);
    const pages = Number(pdfInfo(path).Pages);
    expect(pages).toBeGreaterThan(1);
    for (let page = 1; page <= pages; page++) {
      expect(pdfText(path, { first: page, last: page }), `page ${page}`).toContain("ANULADA / VOID");
    }
  });

  it("the void invoice stays legible with the mark: the mark reads first, then all of the issued invoice's text", async () => {
    const text = pdfText(await pdfOf(VOID_SPANISH));
    const issued = pdfText(await pdfOf(SPANISH));
    // The mark reads first, then everything the issued invoice says, unchanged.
    expect(text.startsWith("ANULADA / VOID ")).toBe(true);
    expect(text.slice("ANULADA / VOID ".length)).toBe(issued);
  });

  it("the QR of a void invoice still reads back as its qrUrl", async () => {
    expect(zbar(png(await pdfOf(VOID_SPANISH)))).toBe(VOID_SPANISH.qrUrl);
  });
});
