import { PDFDocument } from "@pdfme/pdf-lib";
import type { Declaration } from "../verifactu/declaration-document";
import { embedSubset } from "./fontkit";
import { PRODUCER } from "./render";
import { leading, MUTED, Sheet, type Style } from "./sheet";
import { Typeface } from "./text";
import type { PdfAssets } from "./types";
import { drawWatermark } from "./watermark";

const TITLE: Style = { size: 13, bold: true };
const LABEL: Style = { size: 9, bold: true };
const VALUE: Style = { size: 10 };
const NOTE: Style = { size: 8, color: MUTED };

/** What a development placeholder's pages say: no producer signed it. */
export const PLACEHOLDER_MARK = "MARCADOR DE DESARROLLO / DEVELOPMENT PLACEHOLDER";

/**
 * The declaración responsable (Orden HAC/1177/2024 art. 15) as an A4 PDF: its title, then
 * items a) to l), each datum under the text that describes it (art. 15.1). Pure, like the
 * invoice's: the same declaration and fonts give the same bytes, dated by the declaration's
 * date when it has one.
 *
 * @example
 * const pdf = await renderDeclarationPdf(declarationDocument(input), { font, bold });
 */
export async function renderDeclarationPdf(d: Declaration, assets: PdfAssets): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const regular = await embedSubset(doc, assets.font, "DECLAR");
  const bold = assets.bold ? await embedSubset(doc, assets.bold, "DECLAB") : regular;
  const signed = d.items.at(-1)?.value.match(/^(\d\d)\/(\d\d)\/(\d{4})/);
  const dated = new Date(signed ? `${signed[3]}-${signed[2]}-${signed[1]}T00:00:00Z` : 0);
  doc.setTitle(d.title);
  doc.setAuthor(d.sistema_informatico.NombreRazon);
  doc.setProducer(PRODUCER);
  doc.setCreator(PRODUCER);
  doc.setLanguage("es");
  doc.setCreationDate(dated);
  doc.setModificationDate(dated);

  const sheet = new Sheet(doc, { regular: new Typeface(regular), bold: new Typeface(bold) });
  sheet.paragraph(d.title, TITLE);
  sheet.y -= 4;
  sheet.paragraph(d.legal_basis, NOTE);
  for (const { item, label, value } of d.items) {
    sheet.y -= 10;
    // A label never ends a page without its value's first line under it.
    sheet.ensure(2 * leading(LABEL.size) + leading(VALUE.size));
    sheet.paragraph(`${item}) ${label}:`, LABEL);
    sheet.y -= 2;
    sheet.paragraph(value, VALUE);
  }
  const s = d.sistema_informatico;
  sheet.footers(`${s.NombreSistemaInformatico} (${s.IdSistemaInformatico}) ${s.Version} · ${s.NombreRazon}`);
  if (d.development_placeholder) drawWatermark(sheet, PLACEHOLDER_MARK);
  return doc.save();
}
