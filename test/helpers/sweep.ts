/**
 * "Bad input gets the documented 4xx error with `param`, never a 500", swept: every field of a
 * valid body replaced in turn by hostile values (wrong types, huge and odd numbers, empty, very
 * long, control and non-characters, a bidirectional override, nested shapes), an unknown field
 * at every level, and every query parameter of a list with hostile strings. An answer must be
 * below 500, a 400 other than `json_invalid` must name its `param`, and a refused request must
 * have written no D1 row; `request()` also holds each answer to the OpenAPI document.
 *
 * One test per field, and the sweeps spread over a few files: requests through the suite's
 * self-binding (`exports.default.fetch`) get slower with each one an isolate has made (the test
 * pool's bookkeeping; the API's own cost is flat), so no file sends more than about a thousand.
 */
import { expect, it, vi } from "vitest";
import { type ApiResponse, request } from "./api";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

const HOSTILE: unknown[] = [
  null,
  true,
  -1,
  1.5,
  1e308,
  "",
  " ",
  "x".repeat(5000),
  "9".repeat(400),
  "1e5",
  "\u0000",
  "\ud800",
  "\uffff",
  "Acme \u202egpj.exe", // a right-to-left override, left open (Trojan Source)
  [],
  ["a"],
  { a: { b: [1] } },
];

/** Query values: the hostile strings, and what SQL LIKE, quoting and escaping care about. */
const QUERY_VALUES = [
  ...HOSTILE.filter((v): v is string => typeof v === "string"),
  "%",
  "_",
  "'",
  '"',
  "\\",
  "*",
];

/** Every path to a value of `body` (objects and arrays too, not only leaves). */
function paths(body: Json, prefix: Path = []): Path[] {
  if (body === null || typeof body !== "object") return [prefix];
  const entries: [string | number, Json][] = Array.isArray(body)
    ? body.map((v, i) => [i, v])
    : Object.entries(body);
  const children = entries.flatMap(([k, v]) => paths(v, [...prefix, k]));
  return prefix.length ? [prefix, ...children] : children;
}

/** Every object (not array) in `body`; the root is []. */
function objects(body: Json, prefix: Path = []): Path[] {
  if (body === null || typeof body !== "object") return [];
  const entries: [string | number, Json][] = Array.isArray(body)
    ? body.map((v, i) => [i, v])
    : Object.entries(body);
  return [
    ...(Array.isArray(body) ? [] : [prefix]),
    ...entries.flatMap(([k, v]) => objects(v, [...prefix, k])),
  ];
}

function withValue(body: Json, path: Path, value: unknown): Json {
  const copy = structuredClone(body) as Record<string | number, any>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key];
  target[path.at(-1) as string | number] = value;
  return copy as Json;
}

function expectHandled(res: ApiResponse, what: string) {
  const detail = `${what}: ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, detail).toBeLessThan(500);
  const error = (res.body as { error?: { code: string; param?: string } } | null)?.error;
  if (res.status === 400 && error?.code !== "json_invalid")
    expect(error?.param, detail).toEqual(expect.any(String));
  // Refused means nothing written: D1's own count for the request (the tests expose it).
  if (res.status >= 400) expect(res.headers.get("D1-Rows-Written"), detail).toBe("0");
}

export type SweepCase = {
  name: string;
  method: "POST" | "PATCH";
  path: () => string;
  /** A valid body; ids may be read from state the suite's `beforeAll` sets (its shape may not). */
  body: () => Json;
  key: () => string;
  /** The status of the valid body: the sweep checks it first, so mutations reach the handler. */
  ok: number;
};

/** The tests of one write: its valid body passes, each field's hostile values, unknown fields. */
export function sweepWrite(c: SweepCase): void {
  it(`${c.name}: the sweep's valid body is accepted (${c.ok})`, async () => {
    const res = await request(c.method, c.path(), c.body(), { key: c.key() });
    expect(res.status, res.text.slice(0, 300)).toBe(c.ok);
  });
  for (const path of paths(c.body())) {
    it(`${c.name}: ${path.join(".")} replaced by each hostile value`, async () => {
      // Receivers and registries are the outside world: whatever a mutation sends is answered here.
      vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("ok"));
      for (const value of HOSTILE) {
        const res = await request(c.method, c.path(), withValue(c.body(), path, value), { key: c.key() });
        expectHandled(res, `${c.name} ${path.join(".")} = ${JSON.stringify(value)?.slice(0, 40)}`);
      }
    });
  }
  it(`${c.name}: an unknown field at every level is 400 parameter_unknown naming it`, async () => {
    for (const at of objects(c.body())) {
      const res = await request(c.method, c.path(), withValue(c.body(), [...at, "unknown_field"], 1), {
        key: c.key(),
      });
      expect(res.status, `unknown field at ${at.join(".") || "the root"}`).toBe(400);
      expect(res.headers.get("D1-Rows-Written")).toBe("0");
      expect((res.body as { error: object }).error).toMatchObject({
        code: "parameter_unknown",
        param: [...at, "unknown_field"].join("."),
      });
    }
  });
}

/** One test per query parameter of a list: each hostile string is below 500, with `param`. */
export function sweepList(path: string, params: readonly string[], key: () => string): void {
  // Without this, a route that does not exist would pass every row below with its 404.
  it(`GET ${path} without parameters is a 200 list`, async () => {
    const res = await request("GET", path, undefined, { key: key() });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body).toMatchObject({ object: "list", url: path });
  });
  it.each(params)(`GET ${path}?%s= with hostile values`, async (param) => {
    for (const value of QUERY_VALUES) {
      const res = await request("GET", `${path}?${new URLSearchParams({ [param]: value })}`, undefined, {
        key: key(),
      });
      expectHandled(res, `${path}?${param}=${JSON.stringify(value).slice(0, 40)}`);
    }
  });
}
