import { type Color, type PDFDocument, type PDFPage, rgb } from "@pdfme/pdf-lib";
import type { Typeface } from "./text";

/** Points per millimetre: PDF user space is 1/72 inch. */
export const MM = 72 / 25.4;

/** A4 portrait with 15 mm margins; the footer sits in the bottom margin's upper part. */
export const PAGE = { width: 210 * MM, height: 297 * MM, margin: 15 * MM } as const;
const FOOTER = 14;
/** The smallest text drawn, in points. */
export const MIN_SIZE = 8;
/** The invoice's body text (line descriptions, the header's values), in points. */
export const BODY_SIZE = 9;

export const INK = rgb(0.1, 0.1, 0.12);
export const MUTED = rgb(0.42, 0.44, 0.5);
export const HAIRLINE = rgb(0.85, 0.86, 0.88);
export const SHADE = rgb(0.96, 0.965, 0.97);

export interface Fonts {
  regular: Typeface;
  bold: Typeface;
}

export type Align = "left" | "right" | "center";

export interface Style {
  size: number;
  bold?: boolean;
  color?: Color;
}

/** Line height for a font size. */
export const leading = (size: number) => size * 1.32;
// Baseline below the top of a line box: about the font's ascender.
const ascent = (size: number) => size * 0.95;

/**
 * The pages being written and a cursor: `y` is the top of the next thing to draw, in PDF
 * coordinates (origin bottom left). Content that does not fit above the footer goes to a new
 * page, which starts with `continued` (a running header) when one is set.
 */
export class Sheet {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  y = 0;
  continued: ((sheet: Sheet) => void) | null = null;

  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: Fonts,
  ) {
    this.addPage();
  }

  readonly left = PAGE.margin;
  readonly right = PAGE.width - PAGE.margin;
  readonly width = PAGE.width - 2 * PAGE.margin;
  readonly bottom = PAGE.margin + FOOTER;
  readonly top = PAGE.height - PAGE.margin;

  addPage(): void {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages.push(this.page);
    this.y = this.top;
    if (this.pages.length > 1) this.continued?.(this);
  }

  /** Room for `height` points below the cursor, on a new page if needed; true when it broke. */
  ensure(height: number): boolean {
    if (this.y - height >= this.bottom) return false;
    this.addPage();
    return true;
  }

  typeface(style: Style): Typeface {
    return style.bold ? this.fonts.bold : this.fonts.regular;
  }

  measure(text: string, style: Style): number {
    return this.typeface(style).width(text, style.size);
  }

  wrap(text: string, width: number, style: Style): string[] {
    return this.typeface(style).wrap(text, width, style.size);
  }

  /**
   * The style at a size that fits `text` on one line of `width`, shrinking it down to 8 pt at
   * most (amounts read better smaller than broken); what still does not fit then wraps.
   */
  fit(text: string, width: number, style: Style): Style {
    const w = this.measure(text, style);
    return w <= width ? style : { ...style, size: Math.max(MIN_SIZE, (style.size * width) / w) };
  }

  /** One line whose box's top is `top`, aligned in [x, x + width] (left aligned without a width). */
  text(line: string, x: number, top: number, style: Style, align: Align = "left", width = 0): void {
    const w = align === "left" ? 0 : this.measure(line, style);
    const at = align === "right" ? x + width - w : align === "center" ? x + (width - w) / 2 : x;
    this.typeface(style).draw(this.page, line, at, top - ascent(style.size), style.size, style.color ?? INK);
  }

  /** Wrapped lines from `top` down; returns the height used. */
  lines(lines: readonly string[], x: number, top: number, style: Style, align: Align = "left", width = 0) {
    lines.forEach((line, i) => {
      this.text(line, x, top - i * leading(style.size), style, align, width);
    });
    return lines.length * leading(style.size);
  }

  /** A wrapped paragraph at the cursor, breaking pages between its lines; moves the cursor. */
  paragraph(text: string, style: Style, x = this.left, width = this.width): void {
    for (const line of this.wrap(text, width, style)) {
      this.ensure(leading(style.size));
      this.text(line, x, this.y, style);
      this.y -= leading(style.size);
    }
  }

  rule(y: number, x1 = this.left, x2 = this.right, color = HAIRLINE, thickness = 0.75): void {
    this.page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness, color });
  }

  fill(x: number, top: number, width: number, height: number, color: Color): void {
    this.page.drawRectangle({ x, y: top - height, width, height, color, borderWidth: 0 });
  }

  /** "Página 1/3" and a caption on every page, once all pages exist. */
  footers(caption: string): void {
    const style = { size: 8, color: MUTED };
    const baselineTop = PAGE.margin + 8;
    // The caption gives way to the page number: one line, cut to the room left.
    const first = this.wrap(caption, this.width - 70, style)[0] ?? "";
    this.pages.forEach((page, i) => {
      this.page = page;
      this.text(first, this.left, baselineTop, style);
      this.text(`Página ${i + 1}/${this.pages.length}`, this.left, baselineTop, style, "right", this.width);
    });
  }
}
