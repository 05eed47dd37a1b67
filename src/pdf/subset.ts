import type fontkit from "@pdf-lib/fontkit";

type Font = ReturnType<typeof fontkit.create>;
type Subset = ReturnType<Font["createSubset"]>;

/** What fontkit's glyph objects hold that a subset needs (the decoding is fontkit's own). */
interface TrueTypeGlyph {
  id: number;
  advanceWidth: number;
  _decode(): { numberOfContours: number; components?: { glyphID: number; pos: number }[] } | null;
  _getMetrics(): { leftBearing: number };
}

/** One glyph as a subset copies it: its outline's bytes, the components to renumber, its metrics. */
interface GlyphEntry {
  bytes: Uint8Array;
  components: { glyphID: number; pos: number }[];
  advance: number;
  bearing: number;
}

// The tables a PDF needs from a TrueType font (PDF 32000 §9.9), in the order fontkit writes them.
const TABLES = ["head", "hhea", "loca", "maxp", "cvt ", "prep", "glyf", "hmtx", "fpgm"] as const;

/**
 * Subsets of one TrueType font, byte for byte what fontkit's TTFSubset writes, without its cost
 * on every document: fontkit decodes each glyph's outline (to find a composite's components) and
 * re-encodes the hinting tables value by value, which was a fifth of a render. Here each glyph is
 * read once per isolate and the fixed tables are copied as bytes. Null for fonts it does not
 * cover (collections, WOFF, CFF outlines, variable fonts): fontkit's own subset serves them.
 */
export function trueTypeSubsets(font: Font, data: Uint8Array): (() => Subset) | null {
  // A bare TrueType file (version 1.0 or "true"), whose table offsets point into `data`.
  const version = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0);
  if (version !== 0x00010000 && version !== 0x74727565) return null;
  const tables = (
    font as unknown as { directory: { tables: Record<string, { offset: number; length: number }> } }
  ).directory.tables;
  if (!tables.glyf || !tables.loca || tables["CFF "] || tables.CFF2 || tables.fvar) return null;
  const raw = (tag: string) => {
    const t = tables[tag];
    return t ? data.subarray(t.offset, t.offset + t.length) : null;
  };
  const glyf = raw("glyf")!;
  const offsets = (font as unknown as { loca: { offsets: number[] } }).loca.offsets;
  const glyphs = new Map<number, GlyphEntry>();
  const entry = (gid: number): GlyphEntry => {
    let e = glyphs.get(gid);
    if (!e) {
      const glyph = font.getGlyph(gid) as unknown as TrueTypeGlyph;
      const decoded = glyph._decode();
      e = {
        bytes: glyf.subarray(offsets[gid], offsets[gid + 1]),
        components: decoded && decoded.numberOfContours < 0 ? (decoded.components ?? []) : [],
        advance: glyph.advanceWidth,
        bearing: glyph._getMetrics().leftBearing,
      };
      glyphs.set(gid, e);
    }
    return e;
  };
  // fontkit 1's type asks for `encodeStream`; pdf-lib also takes fontkit 2's `encode()`, which
  // this has, and then calls it synchronously.
  return () => new TrueTypeSubset(entry, raw) as unknown as Subset;
}

class TrueTypeSubset {
  readonly glyphs: number[] = [];
  private readonly mapping = new Map<number, number>();

  constructor(
    private readonly entry: (gid: number) => GlyphEntry,
    private readonly raw: (tag: string) => Uint8Array | null,
  ) {
    this.includeGlyph(0);
  }

  includeGlyph(glyph: number | { id: number }): number {
    const gid = typeof glyph === "object" ? glyph.id : glyph;
    let id = this.mapping.get(gid);
    if (id === undefined) {
      id = this.glyphs.push(gid) - 1;
      this.mapping.set(gid, id);
    }
    return id;
  }

  encode(): Uint8Array {
    // Components join the subset as their composites are copied, so the list grows in the loop.
    const outlines: Uint8Array[] = [];
    const metrics: GlyphEntry[] = [];
    const loca: number[] = [];
    let offset = 0;
    for (let i = 0; i < this.glyphs.length; i++) {
      const e = this.entry(this.glyphs[i]!);
      let bytes = e.bytes;
      if (e.components.length > 0) {
        bytes = bytes.slice();
        const view = new DataView(bytes.buffer);
        for (const c of e.components) view.setUint16(c.pos, this.includeGlyph(c.glyphID));
      }
      outlines.push(bytes);
      metrics.push(e);
      loca.push(offset);
      offset += bytes.length;
    }
    loca.push(offset);
    const long = offset > 0xffff;

    const sizes: Record<(typeof TABLES)[number], number> = {
      head: this.raw("head")!.length,
      hhea: this.raw("hhea")!.length,
      loca: loca.length * (long ? 4 : 2),
      maxp: this.raw("maxp")!.length,
      "cvt ": this.raw("cvt ")?.length ?? 0,
      prep: this.raw("prep")?.length ?? 0,
      glyf: offset,
      hmtx: metrics.length * 4,
      fpgm: this.raw("fpgm")?.length ?? 0,
    };
    const present = TABLES.filter(
      (tag) => tag === "loca" || tag === "glyf" || tag === "hmtx" || this.raw(tag),
    );
    const directory = 12 + 16 * present.length;
    const out = new Uint8Array(directory + present.reduce((sum, tag) => sum + sizes[tag], 0));
    const view = new DataView(out.buffer);

    // The directory as fontkit writes it: tag "true", no checksums, tables back to back.
    const power = 2 ** Math.floor(Math.log2(present.length));
    out.set([0x74, 0x72, 0x75, 0x65]);
    view.setUint16(4, present.length);
    view.setUint16(6, power * 16);
    view.setUint16(8, Math.log2(power));
    view.setUint16(10, present.length * 16 - power * 16);
    let at = directory;
    present.forEach((tag, i) => {
      const row = 12 + 16 * i;
      for (let k = 0; k < 4; k++) out[row + k] = tag.charCodeAt(k);
      view.setUint32(row + 8, at);
      view.setUint32(row + 12, sizes[tag]);
      at += this.write(tag, out, view, at, { outlines, metrics, loca, long });
    });
    return out;
  }

  private write(
    tag: (typeof TABLES)[number],
    out: Uint8Array,
    view: DataView,
    at: number,
    s: { outlines: Uint8Array[]; metrics: GlyphEntry[]; loca: number[]; long: boolean },
  ): number {
    const start = at;
    switch (tag) {
      case "loca":
        for (const o of s.loca) {
          if (s.long) view.setUint32(at, o);
          else view.setUint16(at, o >>> 1);
          at += s.long ? 4 : 2;
        }
        return at - start;
      case "glyf":
        for (const b of s.outlines) {
          out.set(b, at);
          at += b.length;
        }
        return at - start;
      case "hmtx":
        for (const m of s.metrics) {
          view.setUint16(at, m.advance);
          view.setInt16(at + 2, m.bearing);
          at += 4;
        }
        return at - start;
      default: {
        const bytes = this.raw(tag)!;
        out.set(bytes, at);
        // The copies' counts: indexToLocFormat, numberOfHMetrics, numGlyphs.
        if (tag === "head") view.setInt16(at + 50, s.long ? 1 : 0);
        if (tag === "hhea") view.setUint16(at + 34, s.metrics.length);
        if (tag === "maxp") view.setUint16(at + 4, s.outlines.length);
        return bytes.length;
      }
    }
  }
}
