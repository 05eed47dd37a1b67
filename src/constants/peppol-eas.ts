/**
 * The Peppol Electronic Address Scheme (EAS) codes: the schemes a Peppol id
 * (`<scheme>:<id>`, an endpoint's `schemeID`) may use. Copied from the `eaid` variable that
 * rule PEPPOL-EN16931-CL008 checks in Peppol BIS Billing 3.0.21 (May 2026 release), file
 * `PEPPOL-EN16931-UBL.sch` as carried by phax/phive-rules commit 432f0e9a8cff5c03d06625abe7a5fd8e7e346a64
 * (`phive-rules-peppol/src/test/resources/external/rule-source/openpeppol/2026.5/`). One
 * string, split once: the API Worker's bundle carries the codes, not an array literal.
 */
export const PEPPOL_EAS_CODES: ReadonlySet<string> = /* @__PURE__ */ new Set(
  "0002 0007 0009 0060 0088 0096 0097 0106 0130 0135 0142 0151 0183 0184 0188 0190 0191 0192 0195 0196 0198 0199 0200 0201 0204 0208 0209 0210 0211 0216 0218 0221 0225 0230 0235 0240 0242 0244 0245 0246 0248 9910 9913 9914 9915 9918 9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939 9940 9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959".split(
    " ",
  ),
);
