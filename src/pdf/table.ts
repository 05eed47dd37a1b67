import { type Align, BODY_SIZE, HAIRLINE, leading, MUTED, SHADE, type Sheet, type Style } from "./sheet";

/**
 * A table that flows over pages: its header row is repeated on each page it reaches, a row is
 * kept on one page when it fits on one, and a row taller than a page (a 1,000-character
 * description) continues on the next.
 */

export interface Column {
  header: string;
  width: number;
  align: Align;
}

/** A cell: its paragraphs (each wrapped to the column), an optional style; `fit` shrinks an amount to one line. */
export interface Cell {
  text: readonly string[];
  style?: Style;
  fit?: boolean;
}

const PAD = 4;
const BODY: Style = { size: BODY_SIZE };
const HEAD: Style = { size: 8, bold: true, color: MUTED };

function header(sheet: Sheet, columns: readonly Column[]): void {
  const height = leading(HEAD.size) + 2 * PAD;
  sheet.fill(sheet.left, sheet.y, sheet.width, height, SHADE);
  let x = sheet.left;
  for (const column of columns) {
    const lines = sheet.wrap(column.header, column.width - 2 * PAD, HEAD).slice(0, 1);
    sheet.lines(lines, x + PAD, sheet.y - PAD, HEAD, column.align, column.width - 2 * PAD);
    x += column.width;
  }
  sheet.y -= height;
}

export function drawTable(
  sheet: Sheet,
  columns: readonly Column[],
  rows: readonly (readonly Cell[])[],
): void {
  const headHeight = leading(HEAD.size) + 2 * PAD;
  // The header row never ends a page alone.
  sheet.ensure(headHeight + leading(BODY.size) + 2 * PAD);
  header(sheet, columns);
  for (const row of rows) {
    const cells = row.map((cell, i) => {
      const width = columns[i]!.width - 2 * PAD;
      const base = cell.style ?? BODY;
      const style = cell.fit ? sheet.fit(cell.text.join(" "), width, base) : base;
      return { style, lines: cell.text.flatMap((p) => sheet.wrap(p, width, style)) };
    });
    const lineHeight = Math.max(...cells.map((c) => leading(c.style.size)));
    const count = Math.max(...cells.map((c) => c.lines.length));
    // A row that does not fit goes to the next page whole, unless it is too tall for any page.
    const tall = count * lineHeight + 2 * PAD > (sheet.top - sheet.bottom) / 2;
    if (!tall && sheet.ensure(count * lineHeight + 2 * PAD)) header(sheet, columns);
    let start = 0;
    while (start < count) {
      const room = Math.floor((sheet.y - sheet.bottom - 2 * PAD) / lineHeight);
      if (room < 1) {
        sheet.addPage();
        header(sheet, columns);
        continue;
      }
      const take = Math.min(count - start, room);
      let x = sheet.left;
      cells.forEach((cell, i) => {
        const column = columns[i]!;
        const lines = cell.lines.slice(start, start + take);
        sheet.lines(lines, x + PAD, sheet.y - PAD, cell.style, column.align, column.width - 2 * PAD);
        x += column.width;
      });
      sheet.y -= take * lineHeight + 2 * PAD;
      sheet.rule(sheet.y, sheet.left, sheet.right, HAIRLINE, 0.5);
      start += take;
      if (start < count) {
        sheet.addPage();
        header(sheet, columns);
      }
    }
  }
}
