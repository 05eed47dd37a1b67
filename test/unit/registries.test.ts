import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AEAT_VNIF_SEAL_URL, AEAT_VNIF_URL, aeatRegistry } from "../../src/verification/aeat";
import { registryFor } from "../../src/verification/index";
import type { RegistryAnswer, RegistryQuery } from "../../src/verification/registry";
import { hasRegistry } from "../../src/verification/route";
import { sandboxRegistry } from "../../src/verification/sandbox";
import { VIES_CHECK_URL, viesRegistry } from "../../src/verification/vies";
import aeatFault from "../fixtures/registries/aeat-fault.xml?raw";
import aeatIdentified from "../fixtures/registries/aeat-identificado.xml?raw";
import aeatNotIdentified from "../fixtures/registries/aeat-no-identificado.xml?raw";
import viesError from "../fixtures/registries/vies-error.json";
import viesInvalidInput from "../fixtures/registries/vies-error-invalid-input.json";
import viesInvalid from "../fixtures/registries/vies-invalid.json";
import viesUserError from "../fixtures/registries/vies-user-error.json";
import viesNamed from "../fixtures/registries/vies-valid-named.json";
import viesUndisclosed from "../fixtures/registries/vies-valid-undisclosed.json";

// Recorded-shape bodies: test/fixtures/registries/README.md says where each shape comes from.
// The registries are driven through their real code; only the network is fake: a `fetch`
// function for VIES, an mTLS binding's `fetch` for AEAT.

type Sent = { url: string; init: RequestInit };

/** A fake network: answers every request with `respond`, keeping what was sent. */
function network(respond: (sent: Sent) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fetcher = async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return respond({ url, init });
  };
  return { fetcher, sent };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const xml = (body: string, status = 200) =>
  new Response(body, { status, headers: { "Content-Type": "text/xml; charset=utf-8" } });

const ES_VAT: RegistryQuery = { country: "ES", type: "eu_vat", value: "ESB12345674" };
const ES_NIF: RegistryQuery = { country: "ES", type: "es_nif", value: "B85905495" };

/** The reason is logged and stored: an id-like token that never carries the number or a message. */
function expectUnavailable(answer: RegistryAnswer, reason: string | RegExp) {
  expect(answer, JSON.stringify(answer)).toMatchObject({ kind: "unavailable" });
  if (answer.kind !== "unavailable") return;
  expect(answer.reason).toMatch(/^[\w.:-]{1,100}$/);
  expect(answer.reason).toMatch(typeof reason === "string" ? new RegExp(`^${reason}$`) : reason);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("sandbox registry: exactly compliance.md's table", () => {
  const table: Array<[RegistryQuery["type"], string, number, RegistryAnswer["kind"], boolean | null]> = [];
  for (const attempt of [1, 2, 5]) {
    table.push(["es_nif", "99999999R", attempt, "result", false]);
    table.push(["eu_vat", "ES99999999R", attempt, "result", false]);
    table.push(["es_nif", "00000000T", attempt, "unavailable", null]);
    table.push(["eu_vat", "ES00000000T", attempt, "unavailable", null]);
    const first = attempt === 1;
    table.push(["es_nif", "11111111H", attempt, first ? "unavailable" : "result", first ? null : true]);
    table.push(["eu_vat", "ES11111111H", attempt, first ? "unavailable" : "result", first ? null : true]);
    table.push(["es_nif", "12345678Z", attempt, "result", true]);
    table.push(["eu_vat", "ESB12345674", attempt, "result", true]);
    table.push(["eu_vat", "DE136695976", attempt, "result", true]);
  }

  it.each(table)("%s %s on attempt %i: %s (valid %s)", async (type, value, attempt, kind, valid) => {
    const country = value.startsWith("DE") ? "DE" : "ES";
    const answer = await sandboxRegistry.check({ country, type, value }, attempt);
    if (kind === "result") {
      expect(answer).toEqual({ kind: "result", valid, name: null, address: null });
    } else {
      expectUnavailable(answer, "sandbox:unavailable");
    }
  });

  it("the magic values are per type: the es_nif value as an eu_vat body is any other value", async () => {
    // An eu_vat value always carries its prefix, so "99999999R" alone is not the table's eu_vat row.
    const answer = await sandboxRegistry.check({ country: "ES", type: "eu_vat", value: "99999999R" }, 1);
    expect(answer).toMatchObject({ kind: "result", valid: true });
  });

  it("the sandbox never touches the network", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    await sandboxRegistry.check({ country: "ES", type: "es_nif", value: "11111111H" }, 1);
    await sandboxRegistry.check({ country: "ES", type: "eu_vat", value: "ESB12345674" }, 2);
    expect(spy).not.toHaveBeenCalled();
  });
});

describe("VIES client: the request", () => {
  it("POSTs {countryCode, vatNumber} to check-vat-number with the prefix split off (ESB12345674)", async () => {
    const { fetcher, sent } = network(() => json(viesNamed));
    await viesRegistry(fetcher).check(ES_VAT, 1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe("https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number");
    expect(VIES_CHECK_URL).toBe(sent[0]!.url);
    expect(sent[0]!.init.method).toBe("POST");
    expect(new Headers(sent[0]!.init.headers).get("Content-Type")).toBe("application/json");
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({ countryCode: "ES", vatNumber: "B12345674" });
    expect(sent[0]!.init.signal).toBeInstanceOf(AbortSignal);
  });

  it("Greece (country GR) is sent with its VAT prefix EL", async () => {
    const { fetcher, sent } = network(() => json(viesNamed));
    await viesRegistry(fetcher).check({ country: "GR", type: "eu_vat", value: "EL094259216" }, 1);
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({ countryCode: "EL", vatNumber: "094259216" });
  });

  it.each<[string, RegistryQuery]>([
    ["an es_nif", { country: "ES", type: "es_nif", value: "B12345674" }],
    ["a value without its country's prefix", { country: "DE", type: "eu_vat", value: "FR40303265045" }],
    ["a Greek value with GR instead of EL", { country: "GR", type: "eu_vat", value: "GR094259216" }],
    ["a country outside the EU", { country: "GB", type: "eu_vat", value: "GB220430231" }],
    ["a value with characters VIES does not take", { country: "DE", type: "eu_vat", value: "DE13669597<" }],
  ])("a query that is not an EU VAT number with its prefix is never sent: %s", async (_, query) => {
    const { fetcher, sent } = network(() => json(viesNamed));
    expectUnavailable(await viesRegistry(fetcher).check(query, 1), "vies:query_malformed");
    expect(sent).toHaveLength(0);
  });
});

describe("VIES client: results", () => {
  it("valid with name and address: trimmed, whitespace collapsed, lines joined with commas", async () => {
    const { fetcher } = network(() => json(viesNamed));
    expect(
      await viesRegistry(fetcher).check({ country: "BE", type: "eu_vat", value: "BE0244142664" }, 1),
    ).toEqual({
      kind: "result",
      valid: true,
      name: "NV OR De Vlaamse Radio- en Televisieomroeporganisatie",
      address: "Auguste Reyerslaan 52, 1030 Schaarbeek",
    });
  });

  it('valid with "---" (not disclosed by the member state): name and address are null', async () => {
    const { fetcher } = network(() => json(viesUndisclosed));
    expect(await viesRegistry(fetcher).check(ES_VAT, 1)).toEqual({
      kind: "result",
      valid: true,
      name: null,
      address: null,
    });
  });

  it("invalid: result valid false, with no name or address", async () => {
    const { fetcher } = network(() => json(viesInvalid));
    expect(await viesRegistry(fetcher).check(ES_VAT, 1)).toEqual({
      kind: "result",
      valid: false,
      name: null,
      address: null,
    });
  });

  it("isValid (the GET endpoint's field) is read like valid", async () => {
    const { fetcher } = network(() =>
      json({ isValid: true, userError: "VALID", name: "ACME SL", address: "" }),
    );
    expect(await viesRegistry(fetcher).check(ES_VAT, 1)).toEqual({
      kind: "result",
      valid: true,
      name: "ACME SL",
      address: null,
    });
  });

  it("names and addresses: blank and dashed lines dropped, control characters removed, capped at 500", async () => {
    const long = "A".repeat(600);
    const { fetcher } = network(() =>
      json({ valid: true, name: `  ${long}  `, address: " RUE X 1,\n\n  ---\r\n75001\t\tPARIS\u0007 \n" }),
    );
    const answer = await viesRegistry(fetcher).check(ES_VAT, 1);
    expect(answer).toEqual({
      kind: "result",
      valid: true,
      name: "A".repeat(500),
      address: "RUE X 1, 75001 PARIS",
    });
  });

  it("an empty name and address (as VIES sends for XI) are null", async () => {
    const { fetcher } = network(() => json({ valid: true, name: "", address: "   " }));
    expect(await viesRegistry(fetcher).check(ES_VAT, 1)).toEqual({
      kind: "result",
      valid: true,
      name: null,
      address: null,
    });
  });
});

describe("VIES client: unavailable is never invalid", () => {
  // Each code VIES uses to say it could not answer, in the recorded error shape (HTTP 200).
  const UNAVAILABLE_CODES = [
    "SERVICE_UNAVAILABLE",
    "MS_UNAVAILABLE",
    "TIMEOUT",
    "GLOBAL_MAX_CONCURRENT_REQ",
    "GLOBAL_MAX_CONCURRENT_REQ_TIME",
    "MS_MAX_CONCURRENT_REQ",
    "MS_MAX_CONCURRENT_REQ_TIME",
    // Our side blocked: nothing is learnt about the number.
    "VAT_BLOCKED",
    "IP_BLOCKED",
    // Not in the list we know: never guessed to mean "invalid".
    "SOME_FUTURE_CODE",
  ];

  it.each(UNAVAILABLE_CODES)("%s is unavailable", async (code) => {
    const body = { ...viesError, errorWrappers: [{ error: code, message: "ignored" }] };
    const { fetcher } = network(() => json(body));
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), `vies:${code}`);
  });

  it("the recorded MS_UNAVAILABLE answer (HTTP 200, actionSucceed false) is unavailable", async () => {
    const { fetcher } = network(() => json(viesError));
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), "vies:MS_UNAVAILABLE");
  });

  it("an error code in a 500 CommonResponse is unavailable", async () => {
    const { fetcher } = network(() => json(viesError, 500));
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), "vies:http_500");
  });

  it("userError (the GET shape) wins over isValid: MS_MAX_CONCURRENT_REQ with isValid false is unavailable", async () => {
    const { fetcher } = network(() => json(viesUserError));
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), "vies:MS_MAX_CONCURRENT_REQ");
  });

  it("an error code wins over valid: true", async () => {
    const { fetcher } = network(() => json({ ...viesNamed, userError: "MS_UNAVAILABLE" }));
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), "vies:MS_UNAVAILABLE");
  });

  it.each([500, 502, 503, 504, 429])("HTTP %i is unavailable", async (status) => {
    const { fetcher } = network(() => new Response("<html>busy</html>", { status }));
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), `vies:http_${status}`);
  });

  it("HTTP 429 is unavailable even with a body that reads valid: true", async () => {
    const { fetcher } = network(() => json(viesNamed, 429));
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), "vies:http_429");
  });

  it("a 4xx without INVALID_INPUT (a gateway refusing us) is unavailable", async () => {
    const { fetcher } = network(() => new Response("<html>Forbidden</html>", { status: 403 }));
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), "vies:http_403");
  });

  it("a redirect is unavailable, not followed", async () => {
    const { fetcher, sent } = network(() => new Response(null, { status: 302, headers: { Location: "/x" } }));
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), "vies:http_302");
    expect(sent[0]!.init.redirect).toBe("manual");
  });

  it("a network error (fetch throws) is unavailable", async () => {
    const fetcher = async () => {
      throw new TypeError("Network connection lost.");
    };
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), "vies:network_error");
  });

  it("a timeout is unavailable: a fetcher that never answers is cut off", async () => {
    let signal: AbortSignal | undefined;
    const fetcher = (_url: string, init: RequestInit) => {
      signal = init.signal ?? undefined;
      return new Promise<Response>(() => {});
    };
    const started = Date.now();
    expectUnavailable(await viesRegistry(fetcher, { timeoutMs: 20 }).check(ES_VAT, 1), "vies:timeout");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(signal?.aborted).toBe(true);
  });

  it("the timeout also covers a body that never finishes", async () => {
    const fetcher = async () => new Response(new ReadableStream({ start() {} }), { status: 200 });
    expectUnavailable(await viesRegistry(fetcher, { timeoutMs: 20 }).check(ES_VAT, 1), "vies:timeout");
  });

  it.each([
    ["malformed JSON", '{"valid": tru'],
    ["an HTML maintenance page", "<html>maintenance</html>"],
    ["JSON null", "null"],
    ["an object without valid or isValid", '{"name": "ACME"}'],
    ["actionSucceed false without a code", '{"actionSucceed": false}'],
    ["valid as a string", '{"valid": "true"}'],
  ])("%s is unavailable", async (_, body) => {
    const { fetcher } = network(() => new Response(body, { status: 200 }));
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), "vies:unexpected_body");
  });

  it("an error code of an unexpected shape is reported as unknown, never quoted", async () => {
    const { fetcher } = network(() =>
      json({ actionSucceed: false, errorWrappers: [{ error: "ESB12345674 bad" }] }),
    );
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), "vies:unknown_error");
  });
});

describe("VIES client: INVALID_INPUT", () => {
  it("INVALID_INPUT for a number that passed our format check means not valid for the member state", async () => {
    const { fetcher } = network(() => json(viesInvalidInput));
    expect(await viesRegistry(fetcher).check(ES_VAT, 1)).toEqual({
      kind: "result",
      valid: false,
      name: null,
      address: null,
    });
  });

  it("INVALID_INPUT in a 400 CommonResponse is the same verdict", async () => {
    const { fetcher } = network(() => json(viesInvalidInput, 400));
    expect(await viesRegistry(fetcher).check(ES_VAT, 1)).toMatchObject({ kind: "result", valid: false });
  });

  it("INVALID_INPUT alongside a transient code is unavailable", async () => {
    const body = { actionSucceed: false, errorWrappers: [{ error: "INVALID_INPUT" }, { error: "TIMEOUT" }] };
    const { fetcher } = network(() => json(body));
    expectUnavailable(await viesRegistry(fetcher).check(ES_VAT, 1), "vies:TIMEOUT");
  });
});

describe("AEAT census client (VNifV2)", () => {
  function binding(respond: (sent: Sent) => Response | Promise<Response>) {
    const { fetcher, sent } = network(respond);
    return { certificate: { fetch: fetcher }, sent };
  }

  it("POSTs VNifV2Ent with the NIF and an empty name through the certificate binding", async () => {
    const { certificate, sent } = binding(() => xml(aeatIdentified));
    await aeatRegistry(certificate, AEAT_VNIF_URL).check(ES_NIF, 1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe("https://www1.agenciatributaria.gob.es/wlpl/BURT-JDIT/ws/VNifV2SOAP");
    expect(sent[0]!.init.method).toBe("POST");
    expect(new Headers(sent[0]!.init.headers).get("Content-Type")).toBe("text/xml; charset=utf-8");
    const body = String(sent[0]!.init.body);
    expect(body).toContain(
      'xmlns:vnif="http://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/burt/jdit/ws/VNifV2Ent.xsd"',
    );
    expect(body).toContain(
      "<vnif:VNifV2Ent><vnif:Contribuyente><vnif:Nif>B85905495</vnif:Nif><vnif:Nombre></vnif:Nombre></vnif:Contribuyente></vnif:VNifV2Ent>",
    );
  });

  it("the endpoint is the one given (a seal certificate uses www10)", async () => {
    const { certificate, sent } = binding(() => xml(aeatIdentified));
    await aeatRegistry(certificate, AEAT_VNIF_SEAL_URL).check(ES_NIF, 1);
    expect(sent[0]!.url).toBe("https://www10.agenciatributaria.gob.es/wlpl/BURT-JDIT/ws/VNifV2SOAP");
  });

  it("IDENTIFICADO is valid, with the registered name", async () => {
    const { certificate } = binding(() => xml(aeatIdentified));
    expect(await aeatRegistry(certificate, AEAT_VNIF_URL).check(ES_NIF, 1)).toEqual({
      kind: "result",
      valid: true,
      name: "INVOPOP SL",
      address: null,
    });
  });

  it("NO IDENTIFICADO is invalid", async () => {
    const { certificate } = binding(() => xml(aeatNotIdentified));
    expect(await aeatRegistry(certificate, AEAT_VNIF_URL).check(ES_NIF, 1)).toEqual({
      kind: "result",
      valid: false,
      name: null,
      address: null,
    });
  });

  const answer = (result: string, nif = "B85905495", name = "INVOPOP SL") =>
    aeatIdentified
      .replace("<VNifV2Sal:Nif>B85905495<", `<VNifV2Sal:Nif>${nif}<`)
      .replace(" INVOPOP   SL ", name)
      .replace(">Identificado<", `>${result}<`);

  it.each([
    "Identificado-Baja",
    "Identificado-Revocado",
    "IDENTIFICADO - REVOCADO",
    "No identificado-revocado",
  ])("%s (deregistered or revoked) is invalid", async (result) => {
    const { certificate } = binding(() => xml(answer(result)));
    expect(await aeatRegistry(certificate, AEAT_VNIF_URL).check(ES_NIF, 1)).toEqual({
      kind: "result",
      valid: false,
      name: null,
      address: null,
    });
  });

  it.each(["No identificado -similar", "No procesado", ""])(
    "result %j is not a verdict on an entity's NIF: unavailable",
    async (result) => {
      const { certificate } = binding(() => xml(answer(result)));
      expectUnavailable(
        await aeatRegistry(certificate, AEAT_VNIF_URL).check(ES_NIF, 1),
        "aeat:unexpected_result",
      );
    },
  );

  it("a registered name with a bare ampersand (AEAT sends it unescaped) is read", async () => {
    const { certificate } = binding(() => xml(answer("IDENTIFICADO", "B85905495", "A & B &amp; C, S.L.")));
    expect(await aeatRegistry(certificate, AEAT_VNIF_URL).check(ES_NIF, 1)).toMatchObject({
      valid: true,
      name: "A & B & C, S.L.",
    });
  });

  it("an answer about another NIF is unavailable", async () => {
    const { certificate } = binding(() => xml(answer("IDENTIFICADO", "A85905490")));
    expectUnavailable(await aeatRegistry(certificate, AEAT_VNIF_URL).check(ES_NIF, 1), "aeat:other_nif");
  });

  it.each([500, 200])("a SOAP fault (HTTP %i) is unavailable", async (status) => {
    const { certificate } = binding(() => xml(aeatFault, status));
    expectUnavailable(
      await aeatRegistry(certificate, AEAT_VNIF_URL).check(ES_NIF, 1),
      "aeat:soap_fault:env:Server",
    );
  });

  it.each([500, 502, 503, 504, 429, 403])("HTTP %i is unavailable", async (status) => {
    const { certificate } = binding(() => new Response("<html>error</html>", { status }));
    expectUnavailable(await aeatRegistry(certificate, AEAT_VNIF_URL).check(ES_NIF, 1), `aeat:http_${status}`);
  });

  it.each([
    ["an HTML page", "<html>mantenimiento</html>"],
    ["an envelope without a taxpayer", '<env:Envelope xmlns:env="x"><env:Body/></env:Envelope>'],
  ])("%s is unavailable", async (_, body) => {
    const { certificate } = binding(() => xml(body));
    expectUnavailable(
      await aeatRegistry(certificate, AEAT_VNIF_URL).check(ES_NIF, 1),
      "aeat:unexpected_body",
    );
  });

  it("a network error and a timeout are unavailable", async () => {
    const failing = {
      fetch: async () => {
        throw new TypeError("Network connection lost.");
      },
    };
    expectUnavailable(await aeatRegistry(failing, AEAT_VNIF_URL).check(ES_NIF, 1), "aeat:network_error");
    const silent = { fetch: () => new Promise<Response>(() => {}) };
    expectUnavailable(
      await aeatRegistry(silent, AEAT_VNIF_URL, { timeoutMs: 20 }).check(ES_NIF, 1),
      "aeat:timeout",
    );
  });

  it.each(["12345678Z", "X1234567L", "K1234567L"])(
    "a natural person's NIF (%s) is never sent: the census needs the holder's name",
    async (value) => {
      const { certificate, sent } = binding(() => xml(aeatNotIdentified));
      expectUnavailable(
        await aeatRegistry(certificate, AEAT_VNIF_URL).check({ country: "ES", type: "es_nif", value }, 1),
        "aeat:name_required",
      );
      expect(sent).toHaveLength(0);
    },
  );

  it("a query that is not a valid es_nif is never sent", async () => {
    const { certificate, sent } = binding(() => xml(aeatIdentified));
    const registry = aeatRegistry(certificate, AEAT_VNIF_URL);
    expectUnavailable(
      await registry.check({ country: "ES", type: "eu_vat", value: "ESB85905495" }, 1),
      "aeat:query_malformed",
    );
    expectUnavailable(
      await registry.check({ country: "ES", type: "es_nif", value: "B8590549<" }, 1),
      "aeat:query_malformed",
    );
    expect(sent).toHaveLength(0);
  });

  it("an endpoint that is not https is refused when the client is built", () => {
    const { certificate } = binding(() => xml(aeatIdentified));
    expect(() => aeatRegistry(certificate, "http://www1.agenciatributaria.gob.es/x")).toThrow(/https/);
  });
});

describe("registryFor: the routing rule of compliance.md", () => {
  const certificate = { fetch: async () => xml(aeatIdentified) } as unknown as Fetcher;
  const bindings = (aeat: boolean) => (aeat ? { ...env, AEAT_CERT: certificate } : env);

  it.each([
    // Test mode: the sandbox, for eu_vat on every account and es_nif on es accounts.
    [false, "es", "eu_vat", false, "sandbox"],
    [false, "global", "eu_vat", false, "sandbox"],
    [false, "es", "es_nif", false, "sandbox"],
    [false, "es", "es_nif", true, "sandbox"],
    [false, "global", "es_nif", false, null],
    [false, "es", "local", false, null],
    [false, "global", "local", false, null],
    // Live: VIES for eu_vat; AEAT for es_nif on es accounts only with the certificate binding.
    [true, "es", "eu_vat", false, "vies"],
    [true, "global", "eu_vat", true, "vies"],
    [true, "es", "es_nif", false, null],
    [true, "es", "es_nif", true, "aeat"],
    [true, "global", "es_nif", true, null],
    [true, "es", "local", true, null],
    [true, "global", "local", false, null],
  ] as const)("live %s, %s account, %s, AEAT binding %s: %s", (live, taxRegime, type, aeat, expected) => {
    const registry = registryFor({ live, taxRegime, type, env: bindings(aeat) });
    expect(registry?.name ?? null).toBe(expected);
  });

  it("Live es_nif on an es account asks the census through the AEAT_CERT binding", async () => {
    const { fetcher, sent } = network(() => xml(aeatIdentified));
    const withCert = { ...env, AEAT_CERT: { fetch: fetcher } as unknown as Fetcher };
    const registry = registryFor({ live: true, taxRegime: "es", type: "es_nif", env: withCert });
    expect(await registry?.check(ES_NIF, 1)).toMatchObject({ kind: "result", valid: true });
    expect(sent[0]!.url).toBe(AEAT_VNIF_URL);
  });

  it("AEAT_VNIF_URL chooses the census endpoint (www10 for a seal certificate)", async () => {
    const { fetcher, sent } = network(() => xml(aeatIdentified));
    const withCert = {
      ...env,
      AEAT_CERT: { fetch: fetcher } as unknown as Fetcher,
      AEAT_VNIF_URL: AEAT_VNIF_SEAL_URL,
    };
    await registryFor({ live: true, taxRegime: "es", type: "es_nif", env: withCert })?.check(ES_NIF, 1);
    expect(sent[0]!.url).toBe(AEAT_VNIF_SEAL_URL);
  });
});

describe("hasRegistry: pending or null when a Tax ID is written", () => {
  const certificate = { fetch: async () => xml(aeatIdentified) } as unknown as Fetcher;
  const bindings = (aeat: boolean) => (aeat ? { ...env, AEAT_CERT: certificate } : env);

  it.each([
    [false, "es", "eu_vat", "ESB12345674", false, true],
    [false, "global", "eu_vat", "DE136695976", false, true],
    [false, "es", "es_nif", "12345678Z", false, true],
    [false, "es", "es_nif", "B12345674", false, true],
    [false, "global", "es_nif", "B12345674", false, false],
    [false, "es", "local", "ABC123", false, false],
    [true, "global", "eu_vat", "DE136695976", false, true],
    [true, "es", "es_nif", "B12345674", false, false],
    [true, "es", "es_nif", "B12345674", true, true],
    [true, "global", "es_nif", "B12345674", true, false],
    // The census identifies a person by NIF and name together; a Tax ID carries no name.
    [true, "es", "es_nif", "12345678Z", true, false],
    [true, "es", "es_nif", "X1234567L", true, false],
    [true, "es", "local", "ABC123", true, false],
  ] as const)(
    "live %s, %s account, %s %s, AEAT binding %s: %s",
    (live, taxRegime, type, value, aeat, expected) => {
      expect(hasRegistry({ live, taxRegime, type, value, env: bindings(aeat) })).toBe(expected);
    },
  );
});
