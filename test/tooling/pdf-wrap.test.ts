import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont } from "@pdfme/pdf-lib";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { Typeface } from "../../src/pdf/text";
import { unbreakable } from "../fixtures/pdf-invoices";
import { FONTS } from "./pdf-fonts";

/**
 * Wrapping a word wider than its line: every character kept, in order, each line within the
 * width and the longest that fits, and the work bounded. The font engine's layout (shaping)
 * is what a measurement costs, so the bound is on how many measurements a word takes, not on
 * time (timings live in bench/README.md, `npm run bench:pdf`).
 */

let font: PDFFont;
beforeAll(async () => {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  font = await doc.embedFont(FONTS.font, { subset: true });
});

const WIDTH = 188;
const SIZE = 9;

const word = (count: number) => unbreakable(1, count);

describe("wrapping an unbreakable word", () => {
  it.each([
    ["1,000 letters", word(1000)],
    ["1,000 capitals", "W".repeat(1000)],
    ["a URL", "https://example.com/a/very/long/path/".repeat(20)],
    ["an amount", "1.234.567.890,".repeat(60)],
    ["Arabic letters (joined forms)", "شركةالمثالالعربيةالطويلة".repeat(30)],
    ["combining marks", "a\u0301e\u0308".repeat(200)],
  ])("%s: all the text, lines within the width and as full as they can be", (_, text) => {
    const face = new Typeface(font);
    const lines = face.wrap(text, WIDTH, SIZE);
    expect(lines.join("")).toBe(text);
    expect(lines.length).toBeGreaterThan(1);
    for (const [i, line] of lines.entries()) {
      expect(face.width(line, SIZE), line).toBeLessThanOrEqual(WIDTH);
      const next = Array.from(lines[i + 1] ?? "")[0];
      // Full unless cut after a separator (".", "/"…), which leaves room on purpose.
      if (next !== undefined && !/[.,/\-_:;@]$/.test(line))
        expect(face.width(line + next, SIZE), line).toBeGreaterThan(WIDTH);
    }
  });

  it("measures each line a few times, not once per character: 1,000 letters take under 200 layouts", () => {
    const face = new Typeface(font);
    const layouts = vi.spyOn(font, "widthOfTextAtSize");
    const lines = face.wrap(word(1000), WIDTH, SIZE);
    // About 25 lines: a guess and a check each, and each distinct letter once (29).
    expect(lines.length).toBeLessThan(40);
    expect(layouts.mock.calls.length).toBeLessThan(200);
  });
});
