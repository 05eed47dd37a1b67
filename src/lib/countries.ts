// ISO 3166-1 alpha-2, officially assigned codes (249). XK (Kosovo) is a user-assigned
// code, not an official one, so it is not listed; EL and UK are exceptional
// reservations (EL is Greece's VAT prefix), not country codes.
const ISO_3166_1_ALPHA_2 = `
  AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE
  BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD
  CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
  DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF
  GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU
  ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
  KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
  MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
  NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
  PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI
  SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK
  TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
  VN VU WF WS YE YT ZA ZM ZW
`;

/** Every officially assigned ISO 3166-1 alpha-2 country code. */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(ISO_3166_1_ALPHA_2.trim().split(/\s+/));

/** Whether `code` is an assigned ISO 3166-1 alpha-2 code. Expects uppercased input. */
export function isCountryCode(code: string): boolean {
  return COUNTRY_CODES.has(code);
}

/** The 27 EU member states as ISO country codes (Greece is `GR` here). */
export const EU_MEMBER_STATES: ReadonlySet<string> = new Set(
  "AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK".split(" "),
);

/**
 * The VAT number prefix of a country: Greece's is `EL`, every other country's is its code.
 *
 * @example
 * vatPrefix("GR"); // "EL"
 * vatPrefix("DE"); // "DE"
 */
export function vatPrefix(country: string): string {
  return country === "GR" ? "EL" : country;
}
