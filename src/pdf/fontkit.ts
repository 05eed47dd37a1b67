import fontkit from "@pdf-lib/fontkit";
import type { PDFDocument, PDFFont } from "@pdfme/pdf-lib";
import { trueTypeSubsets } from "./subset";
import { LAYOUT_FEATURES } from "./text";

type Font = ReturnType<typeof fontkit.create>;
type GlyphRun = ReturnType<Font["layout"]>;

// Characters of laid-out text kept per font: a few hundred invoices' worth of words, a few MB.
const LAYOUT_CACHE_CHARS = 32_768;
// Longer strings (a whole paragraph, a 1,000-letter word) rarely come back: not kept.
const LAYOUT_CACHE_LONGEST = 256;

/**
 * Lays out each string once per isolate: shaping (the font engine's plan and substitutions for
 * every call) was the largest part of a render, and the same labels, words and numbers come
 * back in every invoice. pdf-lib only reads a run's glyphs, which are the font's shared, immutable
 * glyph objects. Bounded: past LAYOUT_CACHE_CHARS characters the cache starts over.
 */
function memoizeLayout(font: Font): void {
  const layout = font.layout.bind(font);
  const runs = new Map<unknown, Map<string, GlyphRun>>();
  let chars = 0;
  font.layout = (text, features) => {
    if (text.length > LAYOUT_CACHE_LONGEST) return layout(text, features);
    let byText = runs.get(features);
    if (!byText) {
      byText = new Map();
      runs.set(features, byText);
    }
    let run = byText.get(text);
    if (!run) {
      run = layout(text, features);
      if (chars + text.length > LAYOUT_CACHE_CHARS) {
        runs.clear();
        runs.set(features, byText);
        byText.clear();
        chars = 0;
      }
      byText.set(text, run);
      chars += text.length;
    }
    return run;
  };
}

const parsed = new WeakMap<Uint8Array, Font>();

/**
 * fontkit, with each font parsed once per isolate: decoding DejaVu Sans's tables was most of a
 * render's CPU, twice per font (its name, then pdf-lib's embedder). A parsed font is only read
 * by later renders (each document makes its own subset), so sharing it changes no byte; its
 * layouts are kept, and its subsets copy glyphs read once (subset.ts).
 */
export const fontkitOnce: typeof fontkit = {
  ...fontkit,
  create(bytes: Uint8Array) {
    let font = parsed.get(bytes);
    if (!font) {
      font = fontkit.create(bytes);
      memoizeLayout(font);
      const subsets = trueTypeSubsets(font, bytes);
      if (subsets) font.createSubset = subsets;
      parsed.set(bytes, font);
    }
    return font;
  },
};

/**
 * Embeds only the glyphs used (a whole CJK-capable font would weigh megabytes per invoice),
 * under a fixed subset tag: `ABCDEF+Name` marks a subset for PDF readers, and a fixed tag keeps
 * the bytes deterministic.
 *
 * @example
 * const regular = await embedSubset(doc, assets.font, "INVAPR");
 */
export function embedSubset(doc: PDFDocument, bytes: Uint8Array, tag: string): Promise<PDFFont> {
  doc.registerFontkit(fontkitOnce);
  const name = fontkitOnce.create(bytes).postscriptName ?? "Font";
  return doc.embedFont(bytes, { subset: true, customName: `${tag}+${name}`, features: LAYOUT_FEATURES });
}
