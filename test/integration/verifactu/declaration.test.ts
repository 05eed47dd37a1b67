import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { softwareFor } from "../../../src/verifactu/software";
import { request } from "../../helpers/api";

const PATH = "/v1/verifactu/declaration";
const vars = env as unknown as Record<string, string>;
const UNSET = Object.fromEntries(
  Object.keys(vars)
    .filter((name) => /^VERIFACTU_(PRODUCER|SYSTEM|INSTALLATION|DECLARATION)_/.test(name))
    .map((name) => [name, ""]),
);

async function pdfOf(init: RequestInit = {}) {
  const res = await exports.default.fetch(`http://api.test${PATH}`, init);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("GET /v1/verifactu/declaration: the software declares itself (Orden HAC/1177/2024 art. 15)", () => {
  it("needs no key, and its values are the configuration the records carry", async () => {
    const res = await request("GET", PATH, undefined, { key: null });
    expect(res.status, res.text).toBe(200);
    const body = res.body as {
      title: string;
      development_placeholder: boolean;
      sistema_informatico: unknown;
      items: { item: string; label: string; value: string }[];
    };
    expect(body.title).toBe("DECLARACIÓN RESPONSABLE DEL SISTEMA INFORMÁTICO DE FACTURACIÓN");
    expect(body.development_placeholder).toBe(false);
    expect(body.sistema_informatico).toEqual(softwareFor(env, true));
    const value = Object.fromEntries(body.items.map((i) => [i.item, i.value]));
    expect(body.items.map((i) => i.item).join("")).toBe("abcdefghijkl");
    expect(value).toMatchObject({
      a: vars.VERIFACTU_SYSTEM_NAME,
      b: vars.VERIFACTU_SYSTEM_ID,
      c: vars.VERIFACTU_SYSTEM_VERSION,
      e: "S (sí)",
      f: "S (sí)",
      h: vars.VERIFACTU_PRODUCER_NAME,
      i: vars.VERIFACTU_PRODUCER_NIF,
      j: vars.VERIFACTU_PRODUCER_ADDRESS,
      l: `15/01/2026, ${vars.VERIFACTU_DECLARATION_PLACE}`,
    });
    expect(value.k).toContain("artículo 29.2.j) de la Ley 58/2003");
    expect(res.headers.get("vary")).toBe("Accept");
  });

  it("with Accept: application/pdf, the same declaration is a PDF, with no key either", async () => {
    const { res, bytes } = await pdfOf({ headers: { Accept: "application/pdf" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
  });

  it("is readable from a browser on any origin", async () => {
    const res = await request("GET", PATH, undefined, {
      key: null,
      headers: { Origin: "https://pos.example" },
    });
    expect(res.headers.get("access-control-allow-origin"), res.text).toBe("*");
  });

  it("in production without a configured identity: 409 verifactu_declaration_unavailable", async () => {
    const bindings = { ...env, ...UNSET } as Env;
    expect(Object.keys(UNSET).length).toBe(9);
    const res = await request("GET", PATH, undefined, { key: null, bindings });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({ error: { code: "verifactu_declaration_unavailable" } });
  });

  it("under APP_ENV development without one, the development placeholder, marked as such", async () => {
    const bindings = { ...env, ...UNSET, APP_ENV: "development" } as Env;
    const res = await request("GET", PATH, undefined, { key: null, bindings });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      development_placeholder: true,
      sistema_informatico: { NIF: "00000000T" },
    });
  });
});
