import { shardEnv } from "../db/shards";
import { CATALOG_KEYS, catalogDocuments, etagOf } from "../tax/documents";
import { compile, type Recording, recordingEnv, replay } from "./record";

/**
 * The floors of `bench/` (issue 31): the same work as an API request, with no framework, answered
 * by the development entry before the app sees the request (as a Worker of their own would):
 *
 * - `GET /__bench/floor/catalog`: the es catalog's exact bytes and validators, a constant;
 * - `GET /__bench/floor/read/{customers|invoices}/{id}`: one prepared read by primary key;
 * - `POST /__bench/floor/replay/{name}`: the D1 batches of the API request recorded under `name`
 *   (`Bench-Record: name` on any API request), raw, with fresh ids; for `create`, then the Tax
 *   ID check's queue message, whose consumer writes in the background as for an API create.
 *
 * Only `src/dev/index.ts` imports this; the production Worker does not contain it.
 */
const recordings = new Map<string, Recording>();

/** Serves `request` through `app` with its D1 batches recorded under `name`. */
export async function record(
  name: string,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  app: { fetch: (r: Request, e: Env, c: ExecutionContext) => Response | Promise<Response> },
): Promise<Response> {
  const batches: Parameters<typeof recordingEnv>[1] = [];
  const since = Date.now();
  const res = await app.fetch(request, recordingEnv(env, batches), ctx);
  const body = await res.clone().text();
  let fresh: string[] = [];
  try {
    const prefix = (JSON.parse(body) as { invoice_prefix?: unknown }).invoice_prefix;
    if (typeof prefix === "string") fresh = [prefix];
  } catch {}
  recordings.set(name, {
    batches: compile(batches, since),
    status: res.status,
    body,
    contentType: res.headers.get("content-type") ?? "application/json",
    fresh,
  });
  return res;
}

// The string, as the API's route has it: a Response from a 19 KB Uint8Array took workerd several
// times longer to build than one from the same text (bench/profile.mjs, 2026-11-27).
let catalog: { body: string; etag: string } | undefined;
const json = { "Content-Type": "application/json" };

export async function floor(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const url = request.url;
  const [kind, a, b] = url.slice(url.indexOf("/__bench/floor/") + 15).split("/");
  if (kind === "catalog") {
    if (!catalog) {
      const text = catalogDocuments().get(CATALOG_KEYS.regime("es")) as string;
      catalog = { body: text, etag: await etagOf(text) };
    }
    return new Response(catalog.body, {
      headers: {
        "Content-Type": "application/json; charset=UTF-8",
        ETag: catalog.etag,
        "Cache-Control": "public, max-age=300",
      },
    });
  }
  if (kind === "read" && (a === "customers" || a === "invoices")) {
    const row = await env.DB.prepare(`SELECT * FROM ${a} WHERE id = ?`).bind(b).first();
    return new Response(JSON.stringify(row), { headers: json });
  }
  const recording = kind === "replay" && a ? recordings.get(a) : undefined;
  if (!recording) return new Response(`no floor ${kind}/${a} (record it first)`, { status: 404 });
  const { ids, usage } = await replay(env.DB, recording);
  if (a === "create") ctx.waitUntil(verification(env, ids));
  return new Response(recording.body, {
    status: recording.status,
    headers: {
      "Content-Type": recording.contentType,
      "D1-Rows-Read": String(usage.rowsRead),
      "D1-Rows-Written": String(usage.rowsWritten),
      "D1-Round-Trips": String(usage.roundTrips),
    },
  });
}

/**
 * The Tax ID check a created customer's write leaves (`queueAfterWrite`): its message on the
 * verifications queue after the response, so the background Worker's consumer makes the very
 * writes it makes for an API create (the check's mark, the result on the Tax ID and its
 * customer, its event), on the same thread and at the same pace as for the API's creates.
 */
async function verification(env: Env, ids: Map<string, string>): Promise<void> {
  const taxId = [...ids.values()].find((id) => id.startsWith("txi_")) as string;
  await shardEnv(env, "DB").VERIFICATIONS.send({ tax_id_id: taxId, attempt: 1 });
}
