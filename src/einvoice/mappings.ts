/**
 * Code tables of the structured e-invoices: each mapping is one table, here, and each row has
 * a test (test/unit/einvoice-mappings.test.ts). UBL/EN 16931 first; the Facturae tables are in
 * the section at the end.
 */

/** UNCL5305 duty/tax/fee category codes that EN 16931 allows (BR-CL-17/18). */
export type VatCategory = "S" | "Z" | "E" | "AE" | "K" | "G" | "O" | "L" | "M";

export interface VatCategoryRow {
  category: VatCategory;
  /** CEF VATEX code (BT-121, BR-CL-22), where EN 16931 asks for an exemption reason. */
  exemption_code: string | null;
  /** BT-120. */
  exemption_text: string | null;
}

/**
 * A tax row (a line's tax or a `tax_breakdown` row) → its UNCL5305 category and exemption reason.
 * Keys: an `es` catalog rule (`iva` rules; `igic`/`ipsi` for the Canary Islands and Ceuta and
 * Melilla taxes, which have no catalog rules yet), else the treatment (`taxable` at a rate above
 * zero, `taxable_zero` at 0 %, and the other treatments for custom taxes and rules not named).
 * Exemption reasons: required for E (BR-E-10), AE (BR-AE-10), K (BR-IC-10), G (BR-G-10) and O
 * (BR-O-10); forbidden for S (BR-S-10), Z (BR-Z-10), L (BR-AF-10) and M (BR-AG-10).
 */
export const VAT_CATEGORIES = {
  taxable: { category: "S", exemption_code: null, exemption_text: null },
  taxable_zero: { category: "Z", exemption_code: null, exemption_text: null },
  // Ley 37/1992 art. 20 transposes Directive 2006/112/EC art. 132 (activities in the public interest).
  exempt_art_20: {
    category: "E",
    exemption_code: "VATEX-EU-132",
    exemption_text: "Exempt: Ley 37/1992, art. 20",
  },
  // Exports of goods (art. 21 = Directive art. 146).
  exempt_art_21: { category: "G", exemption_code: "VATEX-EU-G", exemption_text: "Export outside the EU" },
  // Operations assimilated to exports (international transport, vessels, aircraft: Directive art. 148).
  exempt_art_22: {
    category: "E",
    exemption_code: "VATEX-EU-148",
    exemption_text: "Exempt: Ley 37/1992, art. 22",
  },
  // Customs and tax warehouse regimes: no single VATEX code, so the reason is text only (BR-E-10 allows it).
  exempt_arts_23_24: {
    category: "E",
    exemption_code: null,
    exemption_text: "Exempt: Ley 37/1992, arts. 23 y 24",
  },
  // Intra-Community supply of goods (art. 25 = Directive art. 138).
  exempt_art_25: { category: "K", exemption_code: "VATEX-EU-IC", exemption_text: "Intra-community supply" },
  exempt_other: { category: "E", exemption_code: null, exemption_text: "Exempt: Ley 37/1992" },
  exempt: { category: "E", exemption_code: null, exemption_text: "Exempt from VAT" },
  reverse_charge: { category: "AE", exemption_code: "VATEX-EU-AE", exemption_text: "Reverse charge" },
  reverse_charge_eu: { category: "AE", exemption_code: "VATEX-EU-AE", exemption_text: "Reverse charge" },
  not_subject_location: { category: "O", exemption_code: "VATEX-EU-O", exemption_text: "Not subject to VAT" },
  not_subject_art_7_14: { category: "O", exemption_code: "VATEX-EU-O", exemption_text: "Not subject to VAT" },
  not_subject: { category: "O", exemption_code: "VATEX-EU-O", exemption_text: "Not subject to VAT" },
  // Not a VAT row: the surcharge a retailer under the recargo de equivalencia pays with the IVA
  // (Ley 37/1992 arts. 154–163). EN 16931 has one VAT category per line (BT-151) and a
  // breakdown per category and rate that must equal its lines (BR-S-08), so the recargo cannot be
  // a second rate on the line; it is a document-level charge (BG-21), which needs a VAT category
  // (BR-37). IVA is not levied on the recargo, so the charge is `E` with the reason in text
  // (BR-E-10); `S` would tax it (BR-S-08/09) and `O` cannot sit beside other categories (BR-O-11).
  recargo_equivalencia: {
    category: "E",
    exemption_code: null,
    exemption_text: "Recargo de equivalencia (Ley 37/1992, arts. 154-163): not itself subject to IVA",
  },
  igic: { category: "L", exemption_code: null, exemption_text: null },
  ipsi: { category: "M", exemption_code: null, exemption_text: null },
} as const satisfies Record<string, VatCategoryRow>;

export type VatCategoryKey = keyof typeof VAT_CATEGORIES;

/** The row for a tax as the invoice applied it (its catalog tax and rule, treatment and rate). */
export function vatCategoryOf(tax: {
  tax: string | null;
  rule: string | null;
  treatment: string;
  rate: string | null;
}): VatCategoryRow {
  const table: Partial<Record<string, VatCategoryRow>> = VAT_CATEGORIES;
  if (tax.tax === "igic" || tax.tax === "ipsi") return VAT_CATEGORIES[tax.tax];
  const byRule =
    tax.tax === "iva" && tax.rule !== null && tax.treatment !== "taxable" ? table[tax.rule] : undefined;
  if (byRule) return byRule;
  if (tax.treatment === "taxable")
    return Number.parseFloat(tax.rate ?? "0") === 0 ? VAT_CATEGORIES.taxable_zero : VAT_CATEGORIES.taxable;
  return table[tax.treatment] ?? VAT_CATEGORIES.exempt;
}

/**
 * A payment option → UNCL4461 payment means code (BT-81, BR-CL-16). A bank transfer in euros is
 * a SEPA credit transfer (`58`, with the IBAN as BT-84 and the BIC as BT-86); in another currency
 * SEPA does not apply and it is a plain credit transfer (`30`).
 */
export const PAYMENT_MEANS = {
  bank_transfer_eur: { code: "58", name: "SEPA credit transfer" },
  bank_transfer: { code: "30", name: "Credit transfer" },
} as const;

export function paymentMeansOf(type: "bank_transfer", currency: string): { code: string; name: string } {
  return currency === "EUR" ? PAYMENT_MEANS[`${type}_eur`] : PAYMENT_MEANS[type];
}

/**
 * A party's country → the Peppol EAS (Electronic Address Scheme) code of that country's VAT
 * number, the electronic address (BT-34 / BT-49 `EndpointID`) of a party without a `peppol_id`.
 * From the Peppol EAS code list (the codes 99xx "… VAT number", plus Italy's 0211 Partita IVA and
 * Denmark's 0198 SE number); every code is one that Peppol BIS 3.0.21 accepts
 * (PEPPOL-EN16931-CL008). Countries with no VAT scheme in the list (Finland, Sweden, Norway; the
 * United States, whose 9959 is an EIN, not a VAT number) have no row: their parties need a
 * `peppol_id`. The identifier is the VAT number with its country prefix (`9920:ESB12345674`).
 */
export const EAS_VAT_SCHEMES = {
  AD: "9922",
  AL: "9923",
  AT: "9914",
  BA: "9924",
  BE: "9925",
  BG: "9926",
  CH: "9927",
  CY: "9928",
  CZ: "9929",
  DE: "9930",
  DK: "0198",
  EE: "9931",
  ES: "9920",
  FR: "9957",
  GB: "9932",
  GR: "9933",
  HR: "9934",
  HU: "9910",
  IE: "9935",
  IT: "0211",
  LI: "9936",
  LT: "9937",
  LU: "9938",
  LV: "9939",
  MC: "9940",
  ME: "9941",
  MK: "9942",
  MT: "9943",
  NL: "9944",
  PL: "9945",
  PT: "9946",
  RO: "9947",
  RS: "9948",
  SI: "9949",
  SK: "9950",
  SM: "9951",
  TR: "9952",
  VA: "9953",
} as const satisfies Record<string, string>;

export function easVatSchemeOf(country: string): string | null {
  return (EAS_VAT_SCHEMES as Record<string, string>)[country] ?? null;
}

// Facturae

// Facturae 3.2.2 code lists: the values are the XSD's own (Facturaev3_2_2.xsd, simple types
// named per table); test/unit/einvoice-facturae-codes.test.ts checks each row and
// test/tooling/einvoice-facturae.test.ts checks the tables against the XSD itself.

/** ReasonCodeType with its ReasonDescriptionType: the XSD pairs them by position, spelt exactly so. */
export const FACTURAE_REASON_DESCRIPTIONS = {
  "01": "Número de la factura",
  "02": "Serie de la factura",
  "03": "Fecha expedición",
  "04": "Nombre y apellidos/Razón Social-Emisor",
  "05": "Nombre y apellidos/Razón Social-Receptor",
  "06": "Identificación fiscal Emisor/obligado",
  "07": "Identificación fiscal Receptor",
  "08": "Domicilio Emisor/Obligado",
  "09": "Domicilio Receptor",
  "10": "Detalle Operación",
  "11": "Porcentaje impositivo a aplicar",
  "12": "Cuota tributaria a aplicar",
  "13": "Fecha/Periodo a aplicar",
  "14": "Clase de factura",
  "15": "Literales legales",
  "16": "Base imponible",
  "80": "Cálculo de cuotas repercutidas",
  "81": "Cálculo de cuotas retenidas",
  "82": "Base imponible modificada por devolución de envases / embalajes",
  "83": "Base imponible modificada por descuentos y bonificaciones",
  "84": "Base imponible modificada por resolución firme, judicial o administrativa",
  "85": "Base imponible modificada cuotas repercutidas no satisfechas. Auto de declaración de concurso",
} as const;

export type FacturaeReasonCode = keyof typeof FACTURAE_REASON_DESCRIPTIONS;

/**
 * A corrective invoice's reason (VERI*FACTU TipoFactura R1–R5, RD 1619/2012 art. 15 and Ley
 * 37/1992 art. 80) → Facturae `Corrective/ReasonCode`. The API does not say which field or
 * sub-cause changed, so each reason takes the Facturae code that covers all of it:
 * - R1 (art. 80.Uno, Dos and Seis, and errors in law): the taxable base changes → 16; 82–84 name
 *   single sub-causes (returned packaging, discounts, a firm ruling) the API cannot tell apart.
 * - R2 (art. 80.Tres, the customer's insolvency proceedings) → 85, its own code.
 * - R3 (art. 80.Cuatro, debts that cannot be collected) → 16: no Facturae code names it, and
 *   85 is for insolvency proceedings only.
 * - R4 (every other cause) and R5 (a simplified invoice corrected) → 10, the operation's detail,
 *   which is what a correction by differences carries.
 */
export const FACTURAE_CORRECTION_REASONS = {
  R1: "16",
  R2: "85",
  R3: "16",
  R4: "10",
  R5: "10",
} as const satisfies Record<"R1" | "R2" | "R3" | "R4" | "R5", FacturaeReasonCode>;

export function facturaeReasonOf(reason: keyof typeof FACTURAE_CORRECTION_REASONS): {
  code: FacturaeReasonCode;
  description: string;
} {
  const code = FACTURAE_CORRECTION_REASONS[reason];
  return { code, description: FACTURAE_REASON_DESCRIPTIONS[code] };
}

/**
 * Corrections by differences (CorrectionMethodType 02): a corrective invoice of this service
 * carries the change (its own lines, often negative), never the corrected invoice in full (01).
 */
export const FACTURAE_CORRECTION_METHOD = {
  code: "02",
  description: "Rectificación por diferencias",
} as const;

/**
 * UN/ECE Recommendation 20 unit (with Rec 21 packages, `X` + code) → UnitOfMeasureType. The
 * XSD names the Rec 20 / Rec 21 code beside most of its entries ("Horas-HUR", "Cajas-BX"); a
 * unit it has no entry for is 05 (Otros). 14 (Tetra Briks), 27 (6-Packs) and 29 (Raciones)
 * have no Rec 20 code, so no row leads to them.
 */
export const FACTURAE_UNITS: Readonly<Record<string, string>> = {
  C62: "01",
  H87: "01",
  EA: "01",
  HUR: "02",
  KGM: "03",
  LTR: "04",
  XBX: "06",
  XDS: "07",
  XBA: "08",
  XJY: "09",
  XBG: "10",
  XCO: "11",
  XBO: "12",
  XCI: "13",
  CLT: "15",
  CMT: "16",
  XBI: "17",
  DZN: "18",
  XCS: "19",
  XDJ: "20",
  GRM: "21",
  KMT: "22",
  XCA: "23",
  XBH: "24",
  MTR: "25",
  MMT: "26",
  XPK: "28",
  XRO: "30",
  XEN: "31",
  XTB: "32",
  MTQ: "33",
  SEC: "34",
  WTT: "35",
  KWH: "36",
};

/** The Facturae unit of a line's `unit_code` (C62 when it has none): 05, "other", for the rest. */
export function facturaeUnitOf(unitCode: string | null | undefined): string {
  return FACTURAE_UNITS[unitCode ?? "C62"] ?? "05";
}

/** TaxTypeCodeType of the catalog's taxes; a `global` account's custom taxes are 05 (Otro). */
export const FACTURAE_TAX_TYPES = { iva: "01", ipsi: "02", igic: "03", irpf: "04", custom: "05" } as const;

export function facturaeTaxTypeOf(tax: string | null): string {
  return (FACTURAE_TAX_TYPES as Record<string, string>)[tax ?? "custom"] ?? FACTURAE_TAX_TYPES.custom;
}

/**
 * SpecialTaxableEventCodeType of a line whose IVA is not charged: 01 subject and exempt, 02 not
 * subject. The EU services reverse charge (art. 69, VERI*FACTU N2) is not subject to Spanish
 * IVA, so 02; the domestic reverse charge (art. 84.Uno.2º, S2) is subject and not exempt, so it
 * has no special event, only its legal literal.
 */
export function facturaeSpecialEventOf(tax: {
  treatment: string;
  authority_code: string | null;
}): "01" | "02" | null {
  if (tax.treatment === "exempt") return "01";
  if (tax.treatment === "not_subject") return "02";
  if (tax.treatment === "reverse_charge" && tax.authority_code === "N2") return "02";
  return null;
}

/**
 * DIR3 units of a public-sector customer → `AdministrativeCentre/RoleTypeCode`, as FACe reads
 * the codes (the XSD's own names for 01–04, Fiscal / Receptor / Pagador / Comprador, predate it).
 */
export const FACTURAE_DIR3_ROLES = [
  { field: "accounting_office", role: "01", name: "Oficina contable" },
  { field: "managing_body", role: "02", name: "Órgano gestor" },
  { field: "processing_unit", role: "03", name: "Unidad tramitadora" },
  { field: "proposing_body", role: "04", name: "Órgano proponente" },
] as const;

/** PaymentMeansType of a payment option: a bank transfer is 04 (Transferencia). */
export const FACTURAE_PAYMENT_MEANS = { bank_transfer: "04" } as const;

/**
 * ISO 3166-1 alpha-2 → the alpha-3 code of the XSD's CountryType (ISO 3166-1 alpha-3, as of its
 * list): each pair is the alpha-2 code followed by its alpha-3 (Debian iso-codes 3166-1).
 */
const COUNTRY_PAIRS = `
  ADAND AEARE AFAFG AGATG AIAIA ALALB AMARM AOAGO ARARG ASASM ATAUT AUAUS AWABW AZAZE BABIH BBBRB
  BDBGD BEBEL BFBFA BGBGR BHBHR BIBDI BJBEN BMBMU BNBRN BOBOL BRBRA BSBHS BTBTN BWBWA BYBLR BZBLZ
  CACAN CDCOD CFCAF CGCOG CHCHE CICIV CKCOK CLCHL CMCMR CNCHN COCOL CRCRI CUCUB CVCPV CYCYP CZCZE
  DEDEU DJDJI DKDNK DMDMA DODOM DZDZA ECECU EEEST EGEGY EHESH ERERI ESESP ETETH FIFIN FJFJI FKFLK
  FMFSM FOFRO FRFRA GAGAB GBGBR GDGRD GEGEO GFGUF GGGGY GHGHA GIGIB GLGRL GMGMB GNGIN GPGLP GQGNQ
  GRGRC GTGTM GUGUM GWGNB GYGUY HKHKG HNHND HRHRV HTHTI HUHUN IDIDN IEIRL ILISR IMIMN ININD IQIRQ
  IRIRN ISISL ITITA JEJEY JMJAM JOJOR JPJPN KEKEN KGKGZ KHKHM KIKIR KMCOM KNKNA KPPRK KRKOR KWKWT
  KYCYM KZKAZ LALAO LBLBN LCLCA LILIE LKLKA LRLBR LSLSO LTLTU LULUX LVLVA LYLBY MAMAR MCMCO MDMDA
  MEMNE MGMDG MHMHL MKMKD MLMLI MMMMR MNMNG MOMAC MPMNP MQMTQ MRMRT MSMSR MTMLT MUMUS MVMDV MWMWI
  MXMEX MYMYS MZMOZ NANAM NCNCL NENER NFNFK NGNGA NINIC NLNLD NONOR NPNPL NRNRU NUNIU NZNZL OMOMN
  PAPAN PEPER PFPYF PGPNG PHPHL PKPAK PLPOL PMSPM PNPCN PRPRI PSPSE PTPRT PWPLW PYPRY QAQAT REREU
  ROROU RSSRB RURUS RWRWA SASAU SBSLB SCSYC SDSDN SESWE SGSGP SHSHN SISVN SJSJM SKSVK SLSLE SMSMR
  SNSEN SOSOM SRSUR STSTP SVSLV SYSYR SZSWZ TCTCA TDTCD TGTGO THTHA TJTJK TKTKL TLTLS TMTKM TNTUN
  TOTON TRTUR TTTTO TVTUV TWTWN TZTZA UAUKR UGUGA USUSA UYURY UZUZB VAVAT VCVCT VEVEN VGVGB VIVIR
  VNVNM VUVUT WFWLF WSWSM YEYEM YTMYT ZAZAF ZMZMB ZWZWE
  AXFIN BLGLP BQANT BVNOR CCAUS CWANT CXAUS GSGBR HMAUS IOGBR MFGLP SSSDN SXANT TFFRA UMUSA
`;
// The last row: the 15 codes CountryType lacks (it predates them or never listed them), each
// written as the code it listed the territory under: the Netherlands Antilles (ANT) for Bonaire,
// Curaçao and Sint Maarten, Guadeloupe for Saint-Barthélemy and Saint-Martin, Sudan for South
// Sudan, the administering state for the others. Antarctica (AQ) has none.

let countries: Map<string, string> | undefined;

/** The CountryType code of an ISO 3166-1 alpha-2 country; null for AQ (and unknown codes). */
export function facturaeCountryOf(alpha2: string): string | null {
  countries ??= new Map(
    COUNTRY_PAIRS.trim()
      .split(/\s+/)
      .map((p) => [p.slice(0, 2), p.slice(2)]),
  );
  return countries.get(alpha2) ?? null;
}

/** CurrencyCodeType, less its codes ISO 4217 no longer lists (ESP, DEM-era and older ones). */
export const FACTURAE_CURRENCIES: ReadonlySet<string> = new Set(
  `AFN ALL AMD ANG AOA ARS AUD AWG AZN BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BWP BZD CAD CDF CHF
  CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ETB EUR FJD FKP GBP GIP GMD GNF GTQ GYD HKD HNL HRK
  HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL
  LYD MAD MDL MNT MOP MUR MVR MWK MXN MYR NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON
  RUB RWF SAR SBD SCR SEK SGD SHP SLL SOS SRD SVC SYP SZL THB TJS TND TOP TRY TTD TWD TZS UAH USD UYU
  VND VUV WST XAF XCD XOF YER ZAR`.split(/\s+/),
);

/**
 * A Spanish postal code's province (its first two digits are the INE province code), for
 * `AddressInSpain/Province` when an address gives no state; names within TextMax20.
 */
const PROVINCES = [
  "Araba/Álava",
  "Albacete",
  "Alicante/Alacant",
  "Almería",
  "Ávila",
  "Badajoz",
  "Illes Balears",
  "Barcelona",
  "Burgos",
  "Cáceres",
  "Cádiz",
  "Castellón/Castelló",
  "Ciudad Real",
  "Córdoba",
  "A Coruña",
  "Cuenca",
  "Girona",
  "Granada",
  "Guadalajara",
  "Gipuzkoa",
  "Huelva",
  "Huesca",
  "Jaén",
  "León",
  "Lleida",
  "La Rioja",
  "Lugo",
  "Madrid",
  "Málaga",
  "Murcia",
  "Navarra",
  "Ourense",
  "Asturias",
  "Palencia",
  "Las Palmas",
  "Pontevedra",
  "Salamanca",
  "Santa Cruz Tenerife",
  "Cantabria",
  "Segovia",
  "Sevilla",
  "Soria",
  "Tarragona",
  "Teruel",
  "Toledo",
  "Valencia/València",
  "Valladolid",
  "Bizkaia",
  "Zamora",
  "Zaragoza",
  "Ceuta",
  "Melilla",
] as const;

export function spanishProvinceOf(postalCode: string): string | null {
  if (!/^\d{5}$/.test(postalCode)) return null;
  return PROVINCES[Number(postalCode.slice(0, 2)) - 1] ?? null;
}
