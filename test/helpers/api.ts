import { exports } from "cloudflare:workers";

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers; text: string };

type Options = { key?: string | null; headers?: Record<string, string>; rawBody?: string };

/** Calls the worker like an HTTP client would. `key: null` sends no Authorization header. */
export async function request<T = any>(
  method: string,
  path: string,
  body?: unknown,
  options: Options = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let payload: string | undefined = options.rawBody;
  if (body !== undefined) {
    payload = JSON.stringify(body);
    headers["content-type"] ??= "application/json";
  }
  const res = await exports.default.fetch(`http://api.test${path}`, { method, headers, body: payload });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}

/** A client bound to one API key. */
export function client(key: string) {
  return {
    get: <T = any>(path: string) => request<T>("GET", path, undefined, { key }),
    post: <T = any>(path: string, body?: unknown) => request<T>("POST", path, body, { key }),
    patch: <T = any>(path: string, body?: unknown) => request<T>("PATCH", path, body, { key }),
    del: <T = any>(path: string) => request<T>("DELETE", path, undefined, { key }),
  };
}

/** Fails with the whole response in the message, so a red test shows what came back. */
export function expectStatus(res: ApiResponse, status: number): void {
  if (res.status !== status) {
    throw new Error(`expected HTTP ${status}, got ${res.status}: ${res.text}`);
  }
}
