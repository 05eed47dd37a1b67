/**
 * The API Worker (wrangler.toml) and the background Worker (wrangler.jobs.toml) share one
 * database, one catalog, the queues, the PDF bucket, the renderer and the same [vars]: TOML
 * has no includes, so this keeps the two files in step.
 */
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";

const read = (file: string) =>
  unstable_readConfig({ config: new URL(`../../${file}`, import.meta.url).pathname });
const api = read("wrangler.toml");
const jobs = read("wrangler.jobs.toml");
const pdf = read("wrangler.pdf.toml");

describe("the API and background Workers share their bindings and settings", () => {
  it.each([
    "compatibility_date",
    "compatibility_flags",
    "vars",
    "d1_databases",
    "kv_namespaces",
    "r2_buckets",
    "services",
  ] as const)("%s are the same", (key) => {
    expect(jobs[key]).toEqual(api[key]);
  });

  it("every queue the API produces to is produced to by the background Worker too, and consumed by it", () => {
    expect(jobs.queues.producers).toEqual(api.queues.producers);
    const consumed = new Set((jobs.queues.consumers ?? []).map((c: { queue: string }) => c.queue));
    for (const { queue } of api.queues.producers ?? []) expect(consumed).toContain(queue);
  });

  it("only the background Worker consumes queues and runs the cron", () => {
    expect(api.queues.consumers ?? []).toEqual([]);
    expect(api.triggers.crons ?? []).toEqual([]);
    expect(jobs.triggers.crons).toEqual(["* * * * *"]);
  });

  it("the renderer Worker is the one the PDF_RENDERER binding names, on the same compatibility date", () => {
    expect(api.services).toContainEqual(
      expect.objectContaining({ binding: "PDF_RENDERER", service: pdf.name }),
    );
    expect(pdf.compatibility_date).toBe(api.compatibility_date);
  });
});
