/**
 * src/pdf/subset.ts writes font subsets itself, from fontkit's parsed tables, for speed. It
 * must write what fontkit's own TTFSubset writes, byte for byte, for any set of glyphs:
 * composites (accented letters), scripts far apart, and glyphs included in any order.
 */
import fontkit from "@pdf-lib/fontkit";
import { describe, expect, it } from "vitest";
import { trueTypeSubsets } from "../../src/pdf/subset";
import { FONTS } from "./pdf-fonts";

type Font = ReturnType<typeof fontkit.create>;

async function bothSubsets(data: Uint8Array, text: string): Promise<[Uint8Array, Uint8Array]> {
  const reference = fontkit.create(data);
  const ours = fontkit.create(data);
  const make = trueTypeSubsets(ours, data);
  if (!make) throw new Error("DejaVu Sans is a bare TrueType font: subset.ts must cover it");
  const glyphs = (font: Font) => font.layout(text).glyphs;
  const a = reference.createSubset();
  for (const g of glyphs(reference)) a.includeGlyph(g);
  const b = make();
  for (const g of glyphs(ours)) b.includeGlyph(g);
  return [await streamed(a), (b as unknown as { encode(): Uint8Array }).encode()];
}

/** fontkit 1's subset bytes, read as pdf-lib reads them (its `encodeStream`). */
function streamed(subset: unknown): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const stream = (subset as { encodeStream(): NodeJS.EventEmitter }).encodeStream();
  return new Promise((resolve, reject) =>
    stream
      .on("data", (bytes: Uint8Array) => parts.push(bytes))
      .on("end", () => resolve(Buffer.concat(parts)))
      .on("error", reject),
  );
}

describe("font subsets written by subset.ts", () => {
  it.each([
    ["ASCII", "Invoice 2026-000123 total 1,234.56 EUR"],
    ["Spanish with composite accented glyphs", "Factura rectificativa: año, niño, acción, pingüino, ÁÉÍÓÚÑ"],
    ["Greek, Cyrillic and Arabic", "Τιμολόγιο Счёт-фактура فاتورة"],
    ["glyphs included in reverse order", "zyxwvutsrqponmlkjihgfedcba ZYX 9876543210"],
    ["a single glyph", "€"],
  ])("are fontkit's bytes: %s", async (_, text) => {
    for (const data of [FONTS.font, FONTS.bold as Uint8Array]) {
      const [reference, ours] = await bothSubsets(data, text);
      expect(ours.length).toBeGreaterThan(0);
      expect(Buffer.from(ours).equals(Buffer.from(reference))).toBe(true);
    }
  });

  it("leaves fonts it does not cover to fontkit (not a bare TrueType file)", () => {
    const notTrueType = new Uint8Array(FONTS.font);
    notTrueType.set([0x4f, 0x54, 0x54, 0x4f], 0); // "OTTO": CFF outlines
    expect(trueTypeSubsets(fontkit.create(FONTS.font), notTrueType)).toBeNull();
  });
});
