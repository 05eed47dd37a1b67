import { afterAll, describe, expect, it } from "vitest";
import type { PdfInput } from "../../src/pdf/render";
import { SPANISH } from "../fixtures/pdf-invoices";
import { cleanUp, pdfOf, pdfText, png, SKIP, zbar } from "./pdf-tools";

/**
 * A draft's PDF (lifecycle.md): rendered on demand with a visible "BORRADOR / DRAFT" mark and
 * no VERI*FACTU QR (a draft has no record), and no number or date where it has none.
 */

afterAll(cleanUp);

const DRAFT: PdfInput = {
  invoice: {
    ...SPANISH.invoice,
    status: "draft",
    number: null,
    issue_date: null,
    payment_status: null,
    amount_paid: null,
    amount_remaining: null,
    verifactu: null,
  },
  corrected: null,
  qrUrl: null,
};

describe.skipIf(SKIP)("a draft's PDF", () => {
  it("the draft PDF is marked BORRADOR / DRAFT and has no QR", async () => {
    const path = await pdfOf(DRAFT);
    const text = pdfText(path);
    expect(text.startsWith("BORRADOR / DRAFT ")).toBe(true);
    expect(text).not.toContain("VERI*FACTU");
    expect(zbar(png(path))).toBeNull();
    // The issued invoice's PDF carries no such mark.
    expect(pdfText(await pdfOf(SPANISH))).not.toContain("BORRADOR");
  });
});
