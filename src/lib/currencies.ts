// ISO 4217 list one (current currency and funds codes), as published by SIX Financial
// Information, the ISO 4217 maintenance agency; state of January 2026 (165 codes). That list has
// the Caribbean guilder XCG (ANG withdrawn 2025-03), Zimbabwe Gold ZWG (ZWL withdrawn 2024-09),
// the Arab Accounting Dinar XAD, and no BGN (withdrawn 2026-01, Bulgaria adopted the euro).
// Codes whose minor unit is "N.A." (metals XAU XAG XPD XPT, XDR, XSU, XUA, the bond-market
// units XBA–XBD, XTS, XXX) are left out: an amount in them cannot be written in minor units.
const BY_EXPONENT: Record<number, string> = {
  0: "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF",
  2: `
    AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BMD BND BOB BOV BRL BSD BTN BWP
    BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB
    EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES
    KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR
    MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD
    RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP
    TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XAD XCD XCG YER ZAR ZMW ZWG
  `,
  3: "BHD IQD JOD KWD LYD OMR TND",
  4: "CLF UYW",
};

/** Every active ISO 4217 code with a minor unit, mapped to its exponent (EUR → 2). */
export const CURRENCY_EXPONENTS: ReadonlyMap<string, number> = new Map(
  Object.entries(BY_EXPONENT).flatMap(([exponent, codes]) =>
    codes
      .trim()
      .split(/\s+/)
      .map((code) => [code, Number(exponent)] as const),
  ),
);

/**
 * Digits of the currency's minor unit, or undefined for an unknown code. Expects uppercased input.
 *
 * @example
 * currencyExponent("EUR"); // 2
 * currencyExponent("JPY"); // 0
 * currencyExponent("XAU"); // undefined (no minor unit)
 */
export function currencyExponent(code: string): number | undefined {
  return CURRENCY_EXPONENTS.get(code);
}

/**
 * Whether `code` is an active ISO 4217 code with a minor unit. Expects uppercased input.
 *
 * @example
 * isCurrencyCode("EUR"); // true
 * isCurrencyCode("eur"); // false
 */
export function isCurrencyCode(code: string): boolean {
  return CURRENCY_EXPONENTS.has(code);
}
