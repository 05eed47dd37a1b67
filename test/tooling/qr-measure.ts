import type { Gray } from "./pdf-tools";

/**
 * Finds a QR symbol in a rendered page and reads what zbar does not report: where it is, its
 * printed size, its module count, and its format information (error correction level and mask,
 * ISO/IEC 18004 § 7.9), so that a test can check level M from the pixels themselves.
 */

interface Finder {
  x: number;
  y: number;
  unit: number;
  rows: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Centres of finder patterns: rows that cross dark, light, dark, light, dark runs of widths 1:1:3:1:1. */
function finders(img: Gray): Finder[] {
  const clusters: { xs: number[]; ys: number[]; units: number[] }[] = [];
  for (let y = 0; y < img.height; y++) {
    const runs: { start: number; len: number; dark: boolean }[] = [];
    let start = 0;
    let dark = img.dark(0, y);
    for (let x = 1; x <= img.width; x++) {
      const d = x < img.width ? img.dark(x, y) : !dark;
      if (d === dark) continue;
      runs.push({ start, len: x - start, dark });
      start = x;
      dark = d;
    }
    for (let i = 0; i + 4 < runs.length; i++) {
      if (!runs[i]!.dark) continue;
      const widths = runs.slice(i, i + 5).map((r) => r.len);
      const unit = widths.reduce((a, b) => a + b, 0) / 7;
      if (unit < 2 || ![1, 1, 3, 1, 1].every((k, j) => Math.abs(widths[j]! - k * unit) <= unit * 0.6))
        continue;
      const x = runs[i + 2]!.start + runs[i + 2]!.len / 2;
      const cluster = clusters.find(
        (c) => Math.abs(mean(c.xs) - x) < 2 * unit && y - c.ys[c.ys.length - 1]! <= 2,
      );
      if (cluster) {
        cluster.xs.push(x);
        cluster.ys.push(y);
        cluster.units.push(unit);
      } else clusters.push({ xs: [x], ys: [y], units: [unit] });
    }
  }
  // A finder's centre band is three modules tall: text never repeats the ratio over that many rows.
  return clusters
    .map((c) => ({ x: mean(c.xs), y: mean(c.ys), unit: mean(c.units), rows: c.ys.length }))
    .filter((f) => f.rows >= 2 * f.unit);
}

/** From a finder's centre outwards to its outer edge: past the dark core, the light ring and the dark ring. */
function edge(img: Gray, x: number, y: number, dx: number, dy: number): number {
  let changes = 0;
  let dark = true;
  let [px, py] = [Math.round(x), Math.round(y)];
  while (changes < 3) {
    px += dx;
    py += dy;
    if (px < 0 || py < 0 || px >= img.width || py >= img.height) throw new Error("finder runs off the page");
    if (img.dark(px, py) !== dark) {
      changes++;
      dark = !dark;
    }
  }
  // The first light pixel past the ring: the boundary is between it and the ring's last pixel.
  return dx + dy < 0 ? (dx ? px + 1 : py + 1) : dx ? px : py;
}

export interface QrGeometry {
  /** Printed side of the symbol (quiet zone excluded), in millimetres. */
  widthMm: number;
  heightMm: number;
  /** Top-left corner, in millimetres from the page's top-left corner. */
  leftMm: number;
  topMm: number;
  modules: number;
  ecLevel: "L" | "M" | "Q" | "H";
  mask: number;
  /** Whether the 15 format bits are a valid BCH code word (they were read correctly). */
  formatValid: boolean;
}

const LEVELS = ["M", "L", "H", "Q"] as const;

export function measureQr(img: Gray): QrGeometry {
  const found = finders(img);
  if (found.length !== 3) throw new Error(`expected 3 QR finder patterns, found ${found.length}`);
  const tl = found.reduce((a, b) => (a.x + a.y <= b.x + b.y ? a : b));
  const tr = found.reduce((a, b) => (a.x - a.y >= b.x - b.y ? a : b));
  const bl = found.reduce((a, b) => (a.y - a.x >= b.y - b.x ? a : b));
  const left = edge(img, tl.x, tl.y, -1, 0);
  const top = edge(img, tl.x, tl.y, 0, -1);
  const right = edge(img, tr.x, tr.y, 1, 0);
  const bottom = edge(img, bl.x, bl.y, 0, 1);
  const side = right - left;
  const version = Math.round((side / tl.unit - 17) / 4);
  const modules = 17 + 4 * version;
  const pitch = side / modules;
  const bit = (col: number, row: number) =>
    img.dark(left + (col + 0.5) * pitch, top + (row + 0.5) * pitch) ? 1 : 0;
  // The copy of the format information around the top-left finder (ISO/IEC 18004 figure 25).
  const positions: [number, number][] = [
    ...[0, 1, 2, 3, 4, 5].map((i) => [8, i] as [number, number]),
    [8, 7],
    [8, 8],
    [7, 8],
    ...[9, 10, 11, 12, 13, 14].map((i) => [14 - i, 8] as [number, number]),
  ];
  const raw = positions.reduce((acc, [c, r], i) => acc | (bit(c, r) << i), 0);
  const data = (raw ^ 0x5412) >> 10;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  const mm = (px: number) => (px / img.dpi) * 25.4;
  return {
    widthMm: mm(side),
    heightMm: mm(bottom - top),
    leftMm: mm(left),
    topMm: mm(top),
    modules,
    ecLevel: LEVELS[data >> 3]!,
    mask: data & 7,
    formatValid: (((data << 10) | (rem & 0x3ff)) ^ 0x5412) === raw,
  };
}
