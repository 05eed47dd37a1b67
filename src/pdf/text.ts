import {
  type Color,
  endMarkedContent,
  type PDFFont,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  type PDFPage,
} from "@pdfme/pdf-lib";

/**
 * Text that any invoice may hold, made safe to lay out: cleaned of control characters, cut into
 * direction runs, measured, and wrapped. Nothing here throws on odd but valid text: a character
 * the font lacks is drawn as U+FFFD "�", and the original text stays in the PDF as the run's
 * `ActualText`, so that copying or searching the page still finds it.
 */

// Layout characters other than the line break, and C0/C1 controls (the API refuses most of them
// in names, but notes keep tabs and line breaks).
const SPACES = /[\t\u000b\u000c\u0085\u2028\u2029]/g;
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;

/** One line of text: controls removed, line breaks and tabs as spaces, lone surrogates as U+FFFD. */
export function clean(s: string): string {
  return s
    .toWellFormed()
    .replace(/\r\n?|\n/g, " ")
    .replace(SPACES, " ")
    .replace(CONTROLS, "");
}

/** Paragraphs of free text (notes): split at line breaks, each cleaned. */
export function paragraphs(s: string): string[] {
  return s.split(/\r\n?|\n|\u2028|\u2029/).map(clean);
}

// Letters of right-to-left scripts; their digits are left out, so a number stays left to right.
const RTL_SCRIPTS = ["Arabic", "Hebrew", "Syriac", "Thaana", "Nko", "Samaritan", "Mandaic", "Adlam"].map(
  (name) => [name, new RegExp(`^\\p{Script=${name}}$`, "u")] as const,
);
const rtlScript = (ch: string) => RTL_SCRIPTS.find(([, re]) => re.test(ch))?.[0];
const DIGIT = /^\p{Nd}$/u;
const NEUTRAL = /^[\s\p{P}\p{S}\p{M}\p{Cf}]$/u;
const MARK = /^[\p{M}\p{Cf}]$/u;

type Direction = "rtl" | "ltr" | "neutral";

function direction(ch: string): Direction {
  if (DIGIT.test(ch)) return "ltr";
  if (rtlScript(ch)) return "rtl";
  return NEUTRAL.test(ch) ? "neutral" : "ltr";
}

/**
 * Splits a left-to-right line into runs in display order: a right-to-left run (Arabic, Hebrew…,
 * with the spaces and punctuation between its letters) is laid out by the font engine on its
 * own, which orders its glyphs right to left; everything else stays as written. A simplified
 * form of the Unicode bidi algorithm for a left-to-right document: enough for a name or an
 * address embedded in Spanish or English text.
 *
 * @example
 * runs("Cliente شركة المثال S.A."); // ["Cliente ", "المثال", " ", "شركة", " S.A."]
 */
export function runs(line: string): string[] {
  const chars = Array.from(line);
  const dirs = chars.map(direction);
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < chars.length) {
    if (dirs[i] !== "rtl") {
      i++;
      continue;
    }
    // A right-to-left run ends at its last RTL letter before a left-to-right letter: numbers
    // between its words belong to it.
    let end = i;
    for (let j = i; j < chars.length && (dirs[j] !== "ltr" || DIGIT.test(chars[j]!)); j++) {
      if (dirs[j] === "rtl") end = j;
    }
    // Marks after the last letter (Arabic vowel signs) belong to it.
    while (end + 1 < chars.length && MARK.test(chars[end + 1]!)) end++;
    if (i > start) out.push(chars.slice(start, i).join(""));
    out.push(...rtlPieces(chars.slice(i, end + 1)));
    start = i = end + 1;
  }
  if (start < chars.length) out.push(chars.slice(start).join(""));
  return out;
}

/**
 * The pieces of a right-to-left run in display order. Each script is shaped on its own (the font
 * engine applies one script's rules to a string, and orders each piece right to left), numbers
 * and the spaces and punctuation between words are pieces of their own (a number reads left to
 * right), and the pieces are reversed: the first one read is the rightmost.
 */
function rtlPieces(chars: string[]): string[] {
  const pieces: string[] = [];
  let current: string | undefined;
  for (const ch of chars) {
    const kind = MARK.test(ch) ? current : (rtlScript(ch) ?? (DIGIT.test(ch) ? "digits" : "neutral"));
    if (pieces.length > 0 && kind === current) pieces[pieces.length - 1] += ch;
    else pieces.push(ch);
    current = kind;
  }
  return pieces.reverse();
}

/**
 * The font features to embed a font with: OpenType's positioning ones (GPOS) turned off. pdf-lib
 * draws and measures a string by its glyphs' advance widths and never reads the positions its
 * font engine computes, so kerning and mark placement took about a third of each layout
 * (`npm run bench:pdf`) and changed nothing drawn. The substitutions (GSUB: ligatures, Arabic joined forms) stay.
 */
export const LAYOUT_FEATURES = {
  kern: false,
  mark: false,
  mkmk: false,
  curs: false,
  dist: false,
  abvm: false,
  blwm: false,
};

// Where a word too long for its line may break: after these (thousands separators, URL parts).
const BREAK_AFTER = ".,/-_:;@";

// Invisible characters (joiners, variation selectors): dropped when the font has no glyph for them.
const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;

// The code points each font can draw, per isolate: fontkit caches a parsed font's character
// set, so the same array comes back for every document that embeds the font.
const characterSets = new WeakMap<number[], Set<number>>();
function supportedBy(font: PDFFont): Set<number> {
  const characters = font.getCharacterSet();
  let set = characterSets.get(characters);
  if (!set) {
    set = new Set(characters);
    characterSets.set(characters, set);
  }
  return set;
}

/**
 * Measures and draws through one font, never throwing: characters the font lacks are replaced
 * before layout (its `.notdef` glyph would be drawn wider than measured), and if the font engine
 * still fails on a string (a shaping bug on some rare sequence), the string is left out rather
 * than failing the invoice.
 */
export class Typeface {
  private readonly widths = new Map<string, number>();
  private readonly supported: Set<number>;
  private readonly replacement: string;

  constructor(readonly font: PDFFont) {
    this.supported = supportedBy(font);
    this.replacement = this.supported.has(0xfffd) ? "\ufffd" : "?";
    // Drawing lays a string out again (pdf-lib's drawText encodes it through the font engine):
    // a string drawn before (an amount, a tax label, a repeated line of a long word) is encoded
    // once. The encoding is an immutable hex string; the first call recorded its glyphs for
    // the embedded subset.
    const encode = font.encodeText.bind(font);
    const encoded = new Map<string, PDFHexString>();
    font.encodeText = (text: string) => {
      let hex = encoded.get(text);
      if (hex === undefined) {
        hex = encode(text);
        encoded.set(text, hex);
      }
      return hex;
    };
  }

  /** `s` with what the font cannot draw replaced (or dropped, if invisible). */
  private drawable(s: string): string {
    let out = "";
    for (const ch of s) {
      if (this.supported.has(ch.codePointAt(0)!)) out += ch;
      else if (!IGNORABLE.test(ch)) out += this.replacement;
    }
    return out;
  }

  /**
   * Width in points. Measured a word at a time (nothing shapes across a space) and cached:
   * invoices repeat the same words and numbers, and wrapping measures growing lines.
   */
  width(s: string, size: number): number {
    let total = 0;
    for (const piece of s.split(/( +)/)) {
      if (piece === "") continue;
      let w = this.widths.get(piece);
      if (w === undefined) {
        w = attempt(() => this.font.widthOfTextAtSize(this.drawable(piece), 1), 0);
        this.widths.set(piece, w);
      }
      total += w;
    }
    return total * size;
  }

  /** Draws one line starting at `x` on the baseline `y`, run by run in display order. */
  draw(page: PDFPage, s: string, x: number, y: number, size: number, color: Color): void {
    let at = x;
    for (const run of runs(s)) {
      const text = this.drawable(run);
      const replaced = text !== run;
      if (replaced) page.pushOperators(actualText(run));
      attempt(() => page.drawText(text, { x: at, y, size, font: this.font, color }), undefined);
      if (replaced) page.pushOperators(endMarkedContent());
      at += this.width(run, size);
    }
  }

  /**
   * Lines of at most `width` points: breaks at spaces, and inside a word only when the word
   * alone is wider than the line (an amount in the trillions, a URL, a name without spaces),
   * then after its last separator that fits ("1.234." | "567,00 €"), else anywhere.
   */
  wrap(s: string, width: number, size: number): string[] {
    const lines: string[] = [];
    let line = "";
    const fits = (t: string) => this.width(t.trimEnd(), size) <= width;
    for (const token of clean(s).split(/(?<= )/)) {
      if (!this.farTooWide(line + token, width, size) && fits(line + token)) {
        line += token;
        continue;
      }
      if (line.trim() !== "") lines.push(line.trimEnd());
      const pieces = this.breakWord(Array.from(token), width, size, fits);
      lines.push(...pieces.slice(0, -1));
      line = pieces.at(-1) ?? "";
    }
    if (line.trim() !== "" || lines.length === 0) lines.push(line.trimEnd());
    return lines;
  }

  /**
   * Whether a long string is surely wider than the line, by its characters' own widths: more
   * than twice the width, which no shaping halves. It spares the font engine a layout of a
   * whole 1,000-character word only to learn that it does not fit.
   */
  private farTooWide(s: string, width: number, size: number): boolean {
    if (s.length < 100) return false;
    let sum = 0;
    for (const ch of s) {
      sum += this.width(ch, size);
      if (sum > 2 * width) return true;
    }
    return false;
  }

  /**
   * A word wider than the line cut into lines, the last one left open for the next word. Each
   * line is measured a few times, not once per character added: the sum of the characters'
   * own widths guesses where it ends, and the shaped width (kerning, ligatures, joined
   * letters) moves the guess until the line is the longest that fits. So a 1,000-character word
   * costs a few measurements of each of its lines, not a thousand of growing ones.
   */
  private breakWord(chars: string[], width: number, size: number, fits: (t: string) => boolean): string[] {
    const pieces: string[] = [];
    let start = 0;
    while (start < chars.length) {
      let guess = start;
      for (let sum = 0; guess < chars.length; guess++) {
        sum += this.width(chars[guess]!, size);
        if (sum > width && guess > start) break;
      }
      const end = longest(start + 1, chars.length, guess, (n) => fits(chars.slice(start, n).join("")));
      const piece = chars.slice(start, end).join("");
      if (end === chars.length) {
        pieces.push(piece);
        break;
      }
      const cut = Math.max(...Array.from(BREAK_AFTER, (sep) => piece.lastIndexOf(sep))) + 1;
      const kept = cut > 0 && cut < piece.length ? piece.slice(0, cut) : piece;
      pieces.push(kept);
      start += Array.from(kept).length;
    }
    return pieces;
  }
}

/**
 * The largest `n` in `[min, max]` for which `ok(n)` holds (`min` if none does), for an `ok`
 * that holds up to some `n` and not after: from `guess`, steps of 1, 2, 4… find the bracket,
 * then halving closes it. A close guess costs two calls.
 */
function longest(min: number, max: number, guess: number, ok: (n: number) => boolean): number {
  let lo = min;
  let hi = max + 1;
  const probe = Math.min(Math.max(guess, min), max);
  if (ok(probe)) {
    lo = probe;
    for (let step = 1; lo < max; step *= 2) {
      const next = Math.min(lo + step, max);
      if (!ok(next)) {
        hi = next;
        break;
      }
      lo = next;
    }
  } else {
    hi = probe;
    for (let step = 1; hi - 1 > min; step *= 2) {
      const next = Math.max(hi - step, min);
      if (next === min || ok(next)) {
        lo = next;
        break;
      }
      hi = next;
    }
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

function attempt<T>(f: () => T, otherwise: T): T {
  try {
    return f();
  } catch {
    return otherwise;
  }
}

/** `/Span <</ActualText (…)>> BDC`: what text extraction reports for the run, instead of "�". */
function actualText(original: string): PDFOperator {
  const properties = `<</ActualText ${PDFHexString.fromText(original).toString()}>>`;
  return PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of("Span"), properties]);
}
