import type { SistemaInformatico } from "../contracts/verifactu-record";

/**
 * The declaración responsable of Orden HAC/1177/2024, art. 15 (BOE-A-2024-22138,
 * https://www.boe.es/buscar/act.php?id=BOE-A-2024-22138, BOE núm. 260 of 28 October 2024,
 * pp. 137539-137540). Art. 15.1: it opens with the title below, then gives items a) to l) in
 * that order, each preceded by the text that describes it "de acuerdo con lo redactado en la
 * letra". The labels are the first sentence of each letter, with "el apartado 1.a)" read as
 * "la letra a)" of this declaration (k, a statement rather than a datum, is labelled with the
 * norms it names); the values are the configuration every record's
 * `SistemaInformatico` carries. The optional annex of art. 15.2 (other contact details, web
 * addresses, a detailed explanation of how each specification is met) is not given.
 *
 * No imports but types: the PDF renderer Worker builds this document (the API Worker has no
 * bundle room for the text), for the JSON and the PDF alike.
 */

export const DECLARATION_TITLE = "DECLARACIÓN RESPONSABLE DEL SISTEMA INFORMÁTICO DE FACTURACIÓN";

/** What the document is built from: the identity (src/verifactu/software.ts). */
export interface DeclarationInput {
  software: SistemaInformatico;
  /** Art. 15.1.j. */
  address: string;
  /** Art. 15.1.l: locality, then country. */
  place: string;
  /** Art. 15.1.l, YYYY-MM-DD; empty for the development placeholder. */
  date: string;
  /** The development placeholder (`npm start`): no producer's declaration. */
  placeholder: boolean;
}

export type DeclarationItem = { item: string; label: string; value: string };

export interface Declaration {
  object: "verifactu_declaration";
  title: typeof DECLARATION_TITLE;
  legal_basis: string;
  development_placeholder: boolean;
  sistema_informatico: SistemaInformatico;
  items: DeclarationItem[];
}

const REFERS = "a que se refiere la declaración responsable";
const PRODUCER = `de la persona o entidad productora del sistema informático ${REFERS}`;
const yesNo = (flag: "S" | "N") => (flag === "S" ? "S (sí)" : "N (no)");

// Item d: what this system is (the producer's description, not legal text).
const COMPONENTS =
  "Solo software, sin hardware propio: una API HTTP de facturación para varias empresas que se ejecuta en Cloudflare Workers (un Worker que atiende la API, uno de tareas en segundo plano y uno que genera los PDF), con bases de datos Cloudflare D1, almacenamiento R2 y colas. Funcionalidades principales: clientes y sus NIF (con su comprobación en el censo de la AEAT), expedición de facturas completas, simplificadas y rectificativas con numeración por series, cálculo de los impuestos, generación de los registros de facturación encadenados con su huella, su remisión a la AEAT como «VERI*FACTU», el código QR y el PDF de cada factura, cobros y avisos de eventos (webhooks).";

// Item k, as art. 15.1.k requires the producer to state it.
const COMPLIANCE =
  "La persona o entidad productora hace constar que el sistema informático, en la versión indicada en esta declaración, cumple con lo dispuesto en el artículo 29.2.j) de la Ley 58/2003, de 17 de diciembre, General Tributaria, en el Reglamento que establece los requisitos que deben adoptar los sistemas y programas informáticos o electrónicos que soporten los procesos de facturación de empresarios y profesionales, y la estandarización de formatos de los registros de facturación, aprobado por el Real Decreto 1007/2023, de 5 de diciembre, en la Orden HAC/1177/2024, de 17 de octubre, y en la sede electrónica de la Agencia Estatal de Administración Tributaria para todo aquello que complete las especificaciones de dicha orden.";

/** Art. 15.1.l: the date in full, day, month and year in that order, then the place. */
function signedAt({ date, place }: DeclarationInput): string {
  if (!date) return place;
  const [year, month, day] = date.split("-");
  return `${day}/${month}/${year}, ${place}`;
}

/**
 * The declaration as the API returns it and the PDF prints it.
 *
 * @example
 * declarationDocument(input).items.map((i) => i.item).join(""); // "abcdefghijkl"
 */
export function declarationDocument(input: DeclarationInput): Declaration {
  const s = input.software;
  const items: [string, string][] = [
    [`Nombre del sistema informático ${REFERS}`, s.NombreSistemaInformatico],
    ["Código identificador del sistema informático a que se refiere la letra a)", s.IdSistemaInformatico],
    [`Identificador completo de la versión concreta del sistema informático ${REFERS}`, s.Version],
    [
      `Componentes, hardware y software, de que consta el sistema informático ${REFERS}, junto con una breve descripción de lo que hace dicho sistema informático y de sus principales funcionalidades`,
      COMPONENTS,
    ],
    [
      `Indicación de si el sistema informático ${REFERS} se ha producido de tal manera que, a los efectos de cumplir con el Reglamento, solo pueda funcionar exclusivamente como «VERI*FACTU»`,
      yesNo(s.TipoUsoPosibleSoloVerifactu),
    ],
    [
      `Indicación de si el sistema informático ${REFERS} permite ser usado por varios obligados tributarios o por un mismo usuario para dar soporte a la facturación de varios obligados tributarios`,
      yesNo(s.TipoUsoPosibleMultiOT),
    ],
    [
      `Tipos de firma utilizados para firmar los registros de facturación y de evento en el caso de que el sistema informático ${REFERS} no sea utilizado como «VERI*FACTU»`,
      s.TipoUsoPosibleSoloVerifactu === "S"
        ? "No aplica: el sistema informático solo funciona como «VERI*FACTU» (letra e)."
        : "",
    ],
    [
      `Nombre y apellidos de la persona o razón social de la entidad productora del sistema informático ${REFERS}`,
      s.NombreRazon,
    ],
    [`Número de identificación fiscal (NIF) español ${PRODUCER}`, s.NIF],
    [`Dirección postal completa de contacto ${PRODUCER}`, input.address],
    [
      "Cumplimiento del artículo 29.2.j) de la Ley 58/2003, General Tributaria, del Reglamento aprobado por el Real Decreto 1007/2023 y de la Orden HAC/1177/2024",
      COMPLIANCE,
    ],
    [
      "Fecha y lugar en los que la persona o entidad productora del sistema informático suscribe la declaración responsable del mismo",
      signedAt(input),
    ],
  ];
  return {
    object: "verifactu_declaration",
    title: DECLARATION_TITLE,
    legal_basis: "Orden HAC/1177/2024, de 17 de octubre, artículo 15 (BOE-A-2024-22138)",
    development_placeholder: input.placeholder,
    sistema_informatico: s,
    items: items.map(([label, value], i) => ({ item: "abcdefghijkl"[i]!, label, value })),
  };
}
