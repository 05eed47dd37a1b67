/** Objects read back through the API, as tests compare them before and after a call. */
import { type ApiClient, client, expectStatus } from "./api";

/**
 * A destination as GET returns it with `key` (the error envelope when `key` cannot see it),
 * so that a call that must leave it alone can be shown to have done so.
 *
 * @example
 * expect(await readDestination(account.testKey, id)).toEqual(before);
 */
export async function readDestination(key: string, id: string) {
  return (await client(key).get(`/v1/event-destinations/${id}`)).body;
}

/**
 * The events of the caller's environment, newest first; `query` starts with `?`.
 *
 * @example
 * const [latest] = (await listEvents(api, "?limit=1")).data;
 */
export async function listEvents(api: ApiClient, query: `?${string}` | "" = "") {
  const res = await api.get(`/v1/events${query}`);
  expectStatus(res, 200);
  return res.body;
}
